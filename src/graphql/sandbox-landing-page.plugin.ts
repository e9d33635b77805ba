import { ApolloServerPlugin } from '@apollo/server';
import { printSchema } from 'graphql';
import { escapeHtml } from '../common/http/html';

/**
 * Sandbox only: GET /graphql in a browser shows how to call the API and the schema, as a static page.
 * Apollo's default landing pages load scripts from a CDN, which the service's Content-Security-Policy
 * (and DESIGN.md's "no CDN") rule out. Production has no landing page and no introspection.
 */
export function sandboxLandingPagePlugin(): ApolloServerPlugin {
  return {
    async serverWillStart({ schema }) {
      const html = page(printSchema(schema));
      return { async renderLandingPage() { return { html }; } };
    },
  };
}

function page(sdl: string): string {
  const example = `curl -s -u demo:demo-password -H 'Content-Type: application/json' http://localhost:3000/graphql \\
  -d '{"query":"{ sessions(first: 5) { edges { node { id state totalAmount { amount currency } } } pageInfo { hasNextPage endCursor } } }"}'`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>GraphQL for dashboards</title>
<style>body{font-family:system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem}pre{background:#f4f4f4;padding:1rem;overflow:auto}</style>
</head><body>
<h1>GraphQL for dashboards</h1>
<p>POST a JSON body <code>{"query": "…", "variables": {…}}</code> to this URL with the same Basic credentials as the Session interface.
Introspection works here in the sandbox, so GraphQL clients (Insomnia, Postman, Altair, graphql-codegen) can load the schema.</p>
<pre>${escapeHtml(example)}</pre>
<h2>Schema</h2>
<pre>${escapeHtml(sdl)}</pre>
</body></html>`;
}
