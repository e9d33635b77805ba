declare module 'iso-3166-2' {
  interface Subdivision {
    type: string;
    name: string;
    countryName: string;
    countryCode: string;
    code: string;
    regionCode: string;
  }
  export function subdivision(code: string): Subdivision | null;
  export function country(code: string): { name: string; code: string; sub: Record<string, unknown> } | null;
}
