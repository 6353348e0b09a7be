# syntax=docker/dockerfile:1
# The production image: Next.js's standalone server folder (output: 'standalone') behind our server
# (scripts/serve-site.mjs: each page's Content-Security-Policy completed with its script hashes,
# compression once per page version, CDN cache headers). It talks to hosted Sanity and Supabase only:
# the local twins are not in it. docs/deploy.md says what to pass at build and at run time.
#
#   docker build -t plume-site --build-arg NEXT_PUBLIC_SANITY_PROJECT_ID=abc123de \
#     --build-arg NEXT_PUBLIC_SUPABASE_URL=https://xyz.supabase.co --build-arg NEXT_PUBLIC_SUPABASE_ANON_KEY=… \
#     --build-arg NEXT_PUBLIC_SITE_URL=https://www.example.fr .
#   docker run -p 3000:3000 -e SANITY_REVALIDATE_SECRET=… -e SANITY_API_READ_TOKEN=… plume-site
#
# scripts/standalone-folder.mjs copies what the COPY --from=build lines of the last stage copy, and the
# test command runs that folder with this CMD: keep those lines one source per line.

ARG NODE_IMAGE=node:24-bookworm-slim

FROM ${NODE_IMAGE} AS build
WORKDIR /app
ENV NEXT_TELEMETRY_DISABLED=1 DO_NOT_TRACK=1
# Public values are written into the pages and the browser code at build time.
ARG NEXT_PUBLIC_SANITY_PROJECT_ID
ARG NEXT_PUBLIC_SANITY_DATASET=production
ARG NEXT_PUBLIC_SANITY_API_VERSION=2025-10-01
ARG NEXT_PUBLIC_SUPABASE_URL
ARG NEXT_PUBLIC_SUPABASE_ANON_KEY
ARG NEXT_PUBLIC_SITE_URL
RUN test -n "$NEXT_PUBLIC_SANITY_PROJECT_ID" && test -n "$NEXT_PUBLIC_SUPABASE_URL" && test -n "$NEXT_PUBLIC_SUPABASE_ANON_KEY" && test -n "$NEXT_PUBLIC_SITE_URL" \
  || { echo 'Pass NEXT_PUBLIC_SANITY_PROJECT_ID, NEXT_PUBLIC_SUPABASE_URL, NEXT_PUBLIC_SUPABASE_ANON_KEY and NEXT_PUBLIC_SITE_URL as --build-arg (docs/deploy.md).' >&2; exit 1; }
ENV NEXT_PUBLIC_SANITY_PROJECT_ID=$NEXT_PUBLIC_SANITY_PROJECT_ID NEXT_PUBLIC_SANITY_DATASET=$NEXT_PUBLIC_SANITY_DATASET \
  NEXT_PUBLIC_SANITY_API_VERSION=$NEXT_PUBLIC_SANITY_API_VERSION NEXT_PUBLIC_SUPABASE_URL=$NEXT_PUBLIC_SUPABASE_URL \
  NEXT_PUBLIC_SUPABASE_ANON_KEY=$NEXT_PUBLIC_SUPABASE_ANON_KEY NEXT_PUBLIC_SITE_URL=$NEXT_PUBLIC_SITE_URL
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
# Pages are prerendered from the hosted Content Lake: the build needs to reach it (and, for a private
# dataset, a read token: docker build --secret id=sanity_read_token,env=SANITY_API_READ_TOKEN).
RUN --mount=type=secret,id=sanity_read_token,required=false \
  SANITY_API_READ_TOKEN="$(cat /run/secrets/sanity_read_token 2>/dev/null)" npm run build

FROM ${NODE_IMAGE} AS runtime
WORKDIR /app
ARG NEXT_PUBLIC_SANITY_PROJECT_ID
ARG NEXT_PUBLIC_SANITY_DATASET=production
ARG NEXT_PUBLIC_SANITY_API_VERSION=2025-10-01
ARG NEXT_PUBLIC_SUPABASE_URL
ARG NEXT_PUBLIC_SUPABASE_ANON_KEY
ARG NEXT_PUBLIC_SITE_URL
# The server reads the same values at run time (the policy's sources, draft mode): they stay the build's.
ENV NODE_ENV=production NEXT_TELEMETRY_DISABLED=1 PORT=3000 \
  NEXT_PUBLIC_SANITY_PROJECT_ID=$NEXT_PUBLIC_SANITY_PROJECT_ID NEXT_PUBLIC_SANITY_DATASET=$NEXT_PUBLIC_SANITY_DATASET \
  NEXT_PUBLIC_SANITY_API_VERSION=$NEXT_PUBLIC_SANITY_API_VERSION NEXT_PUBLIC_SUPABASE_URL=$NEXT_PUBLIC_SUPABASE_URL \
  NEXT_PUBLIC_SUPABASE_ANON_KEY=$NEXT_PUBLIC_SUPABASE_ANON_KEY NEXT_PUBLIC_SITE_URL=$NEXT_PUBLIC_SITE_URL
# The standalone folder holds the server and only the production modules it uses; the server writes
# regenerated pages into .next, hence owned by the unprivileged user.
COPY --from=build --chown=node:node /app/.next/standalone ./
COPY --from=build --chown=node:node /app/.next/static ./.next/static
COPY --from=build /app/scripts/serve-site.mjs ./scripts/serve-site.mjs
COPY --from=build /app/scripts/lib/cdn-cache-control.mjs ./scripts/lib/cdn-cache-control.mjs
COPY --from=build /app/scripts/lib/complete-policy.mjs ./scripts/lib/complete-policy.mjs
COPY --from=build /app/scripts/lib/compress-response.mjs ./scripts/lib/compress-response.mjs
COPY --from=build /app/scripts/lib/hold-response.mjs ./scripts/lib/hold-response.mjs
COPY --from=build /app/scripts/lib/request-target.mjs ./scripts/lib/request-target.mjs
COPY --from=build /app/scripts/lib/response-cache.mjs ./scripts/lib/response-cache.mjs
COPY --from=build /app/lib/content-security-policy.ts ./lib/content-security-policy.ts
COPY --from=build /app/lib/security-headers.ts ./lib/security-headers.ts
COPY --from=build /app/lib/backends.ts ./lib/backends.ts
COPY --from=build /app/lib/draft-mode/access-cookie.ts ./lib/draft-mode/access-cookie.ts
COPY --from=build /app/lib/server-config-warnings.ts ./lib/server-config-warnings.ts
COPY --from=build /app/scripts/lib/site-server.mjs ./scripts/lib/site-server.mjs
COPY --from=build /app/node_modules/zod ./node_modules/zod
COPY --from=build /app/node_modules/@plume/local-twins ./node_modules/@plume/local-twins
COPY --from=build /app/local/package.json ./local/package.json
COPY --from=build /app/local/defaults.ts ./local/defaults.ts
COPY --from=build /app/local/content-lake/defaults.ts ./local/content-lake/defaults.ts
COPY --from=build /app/local/supabase/defaults.ts ./local/supabase/defaults.ts
USER node
EXPOSE 3000
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/robots.txt').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
CMD ["node", "scripts/serve-site.mjs"]
