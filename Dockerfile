# syntax=docker/dockerfile:1
# The production image: Next.js's standalone server folder (output: 'standalone', made whole by
# `npm run build` with the static files and public/) behind our server (server/: each page's
# Content-Security-Policy completed with its script hashes, compression once per page version, CDN cache
# headers). It talks to hosted Sanity and Supabase only: nothing of the local twins (twins/) is in it.
# docs/deploy.md says what to pass at build and at run time.
#
#   docker build -t plume-site --build-arg NEXT_PUBLIC_SANITY_PROJECT_ID=abc123de \
#     --build-arg NEXT_PUBLIC_SUPABASE_URL=https://xyz.supabase.co --build-arg NEXT_PUBLIC_SUPABASE_ANON_KEY=… \
#     --build-arg NEXT_PUBLIC_SITE_URL=https://www.example.fr .
#   docker run -p 3000:3000 -e SANITY_REVALIDATE_SECRET=… -e SANITY_API_READ_TOKEN=… plume-site
#
# scripts/lib/standalone-folder.ts copies what the COPY --from=build lines of the last stage copy, and
# the test command runs that folder with this CMD: keep those lines one source per line.

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
# The lock file first: the install is cached until dependencies change. Without the twins' workspace
# (twins/, for development and tests: not in the build context, none of its dependencies installed).
COPY package.json package-lock.json ./
RUN npm ci --workspaces=false --no-audit --no-fund
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
# The standalone folder holds Next's server, the production modules it uses, the static files and
# public/; our server needs only its own folder and what it shares with the pages (lib/security/). The
# server writes regenerated pages into .next, hence owned by the unprivileged user.
COPY --from=build --chown=node:node /app/.next/standalone ./
COPY --from=build /app/server ./server
COPY --from=build /app/lib/security ./lib/security
USER node
EXPOSE 3000
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/robots.txt').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
CMD ["node", "server/main.ts"]
