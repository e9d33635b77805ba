import { Controller, Get, Header, NotFoundException, Param, Res, VERSION_NEUTRAL } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Response } from 'express';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';

const FLAGS_DIR = join(dirname(require.resolve('flag-icons/package.json')), 'flags', '4x3');

const BADGE_SVG = (fill: string, stroke: string) =>
  `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24" width="24" height="24" role="img" aria-label="Merchant of record">` +
  `<path d="M12 2 4 5v6c0 5 3.4 9.4 8 11 4.6-1.6 8-6 8-11V5z" fill="${fill}" stroke="${stroke}" stroke-width="1.5"/>` +
  `<path d="m8.5 12 2.5 2.5 4.5-5" fill="none" stroke="${stroke}" stroke-width="2" stroke-linecap="round" stroke-linejoin="round"/></svg>`;

/** Images the badge links to, served by the service itself (no third-party hosts for a page's CSP to allow). */
@ApiExcludeController()
@Controller({ path: 'assets', version: VERSION_NEUTRAL })
export class AssetsController {
  @Get('badge-:theme.svg')
  @Header('Content-Type', 'image/svg+xml')
  @Header('Cache-Control', 'public, max-age=86400')
  badge(@Param('theme') theme: string): string {
    if (theme === 'light') return BADGE_SVG('#e8f5e9', '#1b5e20');
    if (theme === 'dark') return BADGE_SVG('#1b5e20', '#e8f5e9');
    throw new NotFoundException();
  }

  /** Country flags from the flag-icons package; "un" when the country is unknown. */
  @Get('flags/:code.svg')
  flag(@Param('code') code: string, @Res() response: Response): void {
    const file = join(FLAGS_DIR, `${code}.svg`);
    if (!/^[a-z]{2}$/.test(code) || !existsSync(file)) throw new NotFoundException();
    response.setHeader('Cache-Control', 'public, max-age=86400');
    response.type('image/svg+xml').sendFile(file);
  }
}
