import { parseBasicAuthorization } from './basic-credentials';

const basic = (text: string) => `Basic ${Buffer.from(text, 'utf8').toString('base64')}`;

describe('parseBasicAuthorization', () => {
  it.each([
    ['a plain pair', basic('alice:secret-pw'), { username: 'alice', password: 'secret-pw' }],
    ['colons in the password', basic('alice:pa:ss word:'), { username: 'alice', password: 'pa:ss word:' }],
    ['unicode in both parts', basic('jürgen:pässwörd✓'), { username: 'jürgen', password: 'pässwörd✓' }],
    ['a lowercase scheme', basic('alice:pw').replace('Basic', 'basic'), { username: 'alice', password: 'pw' }],
    ['an uppercase scheme', basic('alice:pw').replace('Basic', 'BASIC'), { username: 'alice', password: 'pw' }],
    ['several spaces after the scheme', basic('alice:pw').replace(' ', '   '), { username: 'alice', password: 'pw' }],
    ['whitespace around the header', ` ${basic('alice:pw')}  `, { username: 'alice', password: 'pw' }],
    ['unpadded base64', `Basic ${Buffer.from('alice:pw1').toString('base64').replace(/=+$/, '')}`, { username: 'alice', password: 'pw1' }],
  ])('reads %s', (_, header, expected) => {
    expect(parseBasicAuthorization(header)).toEqual(expected);
  });

  it.each([
    ['no header', undefined],
    ['an empty header', ''],
    ['the scheme alone', 'Basic'],
    ['the scheme and a space', 'Basic '],
    ['another scheme', 'Bearer abc.def'],
    ['a scheme that only starts with Basic', `Basicx ${Buffer.from('alice:pw').toString('base64')}`],
    ['no space after the scheme', `Basic${Buffer.from('alice:pw').toString('base64')}`],
    ['a tab instead of a space', basic('alice:pw').replace(' ', '\t')],
    ['non-base64 characters', 'Basic YWxp!2U6cHc='],
    ['base64url characters', 'Basic YWxp-2U6cHc_'],
    ['a space inside the value', 'Basic YWxp Y2U6cHc='],
    ['too much padding', 'Basic YWxpY2U6cHc==='],
    ['a second parameter', `${basic('alice:pw')}, realm="x"`],
    ['no colon', basic('alice')],
    ['an empty username', basic(':pw')],
    ['an empty password', basic('alice:')],
    ['nothing but a colon', basic(':')],
  ])('refuses %s', (_, header) => {
    expect(parseBasicAuthorization(header)).toBeNull();
  });
});
