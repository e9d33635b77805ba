import { AppConfig } from './app-config';
import { ConfigError, validateEnv } from './env';

describe('validateEnv', () => {
  it('accepts an empty environment and applies the defaults', () => {
    const sut = new AppConfig(validateEnv({}));
    expect(sut.port).toBe(3000);
    expect(sut.environment).toBe('sandbox');
    expect(sut.publicUrl).toBe('http://localhost:3000');
    expect(sut.database).toEqual({ type: 'sqlite', path: 'data/payments.sqlite' });
    expect(sut.currentApiVersion).toBe('v2.22');
    expect(sut.sessionTtlSeconds).toBe(86400);
  });

  it.each([
    ['PORT', 'abc'],
    ['PORT', '70000'],
    ['APP_ENV', 'staging'],
    ['DATABASE_URL', 'postgres://x'],
    ['PUBLIC_URL', 'not a url'],
    ['SESSION_TTL_SECONDS', '5'],
    ['API_VERSIONS', '2.22'],
  ])('rejects %s=%s with a message naming the variable', (name, value) => {
    expect(() => validateEnv({ [name]: value })).toThrow(ConfigError);
    expect(() => validateEnv({ [name]: value })).toThrow(new RegExp(`${name}=`));
  });

  it('parses a MySQL URL and a custom public URL', () => {
    const sut = AppConfig.fromEnvironment({
      DATABASE_URL: 'mysql://root@127.0.0.1:3306/test',
      PUBLIC_URL: 'https://pay.example.com/',
      PORT: '8080',
    });
    expect(sut.database).toEqual({ type: 'mysql', url: 'mysql://root@127.0.0.1:3306/test', poolSize: 32 });
    expect(sut.publicUrl).toBe('https://pay.example.com');
  });
});
