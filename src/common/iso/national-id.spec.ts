import { classifyNationalId } from './national-id';

describe('classifyNationalId', () => {
  it.each([
    ['BR', '529.982.247-25', 'CPF'],
    ['BR', '52998224725', 'CPF'],
    ['BR', '52998224724', null],
    ['BR', '11111111111', null],
    ['BR', '11.222.333/0001-81', 'CNPJ'],
    ['BR', '11222333000180', null],
    ['AR', '12345678', 'DNI'],
    ['AR', '20-12345678-6', 'CUIT'],
    ['AR', '20123456780', null],
    ['AR', '123', null],
    ['IN', '234123412346', 'AADHAAR'],
    ['IN', '234123412345', null],
    ['IN', 'ABCPE1234F', 'PAN'],
    ['IN', 'ABCXE1234F', null],
    ['US', 'anything', 'UNCHECKED'],
  ])('%s %s -> %p', (country, value, kind) => expect(classifyNationalId(country, value)).toBe(kind));
});
