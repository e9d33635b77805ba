import { AppConfig } from '../common/config/app-config';
import { ConfigError, validateEnv } from '../common/config/env';

describe('remittance configuration', () => {
  it('defaults to a daily run and no fee', () => {
    expect(new AppConfig(validateEnv({})).remittance).toEqual({ intervalSeconds: 86400, fee: { percent: '0', fixedMinor: 0 } });
  });

  it('reads the interval and the fee', () => {
    const sut = AppConfig.fromEnvironment({ REMITTANCE_INTERVAL_SECONDS: '3600', REMITTANCE_FEE_PERCENT: '2.9', REMITTANCE_FEE_FIXED_MINOR: '30' });
    expect(sut.remittance).toEqual({ intervalSeconds: 3600, fee: { percent: '2.9', fixedMinor: 30 } });
    expect(AppConfig.fromEnvironment({ REMITTANCE_FEE_PERCENT: '100' }).remittance.fee.percent).toBe('100');
  });

  it.each([
    ['REMITTANCE_INTERVAL_SECONDS', '10'],
    ['REMITTANCE_INTERVAL_SECONDS', 'daily'],
    ['REMITTANCE_FEE_PERCENT', '101'],
    ['REMITTANCE_FEE_PERCENT', '-1'],
    ['REMITTANCE_FEE_PERCENT', '2.12345'],
    ['REMITTANCE_FEE_PERCENT', '2,9'],
    ['REMITTANCE_FEE_FIXED_MINOR', '0.30'],
    ['REMITTANCE_FEE_FIXED_MINOR', '-30'],
  ])('refuses %s=%s with a message naming the variable', (name, value) => {
    expect(() => validateEnv({ [name]: value })).toThrow(ConfigError);
    expect(() => validateEnv({ [name]: value })).toThrow(new RegExp(`${name}=`));
  });
});
