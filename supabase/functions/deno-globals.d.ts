// Type of the one Deno API our functions use, so the project's TypeScript check covers index.ts files.
// Deno itself ignores this file (nothing imports it).
declare const Deno: { serve(handler: (request: Request) => Response | Promise<Response>): unknown }
