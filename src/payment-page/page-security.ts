/**
 * The hosted payment pages' Content-Security-Policy: only this service's own scripts, styles, images
 * and API; no inline script at all. `frame-ancestors *` because every merchant site embeds the page
 * (the component's iframe); card data still never touches the merchant page, which cannot read into
 * the frame. A merchant page's own CSP must allow this origin in `script-src` and `frame-src`.
 */
export const PAYMENT_PAGE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "form-action 'self'",
  "base-uri 'none'",
  'frame-ancestors *',
].join('; ');
