/** Shown at /studio when no Sanity project is configured: the Studio needs a Content Lake to edit. */
export function StudioSetupHelp() {
  const code = { background: '#f3ece1', borderRadius: 6, padding: '2px 6px', fontSize: '0.95em' } as const
  return (
    <main style={{ fontFamily: 'system-ui, sans-serif', maxWidth: 720, margin: '0 auto', padding: '64px 24px', color: '#1c1917', lineHeight: 1.6 }}>
      <h1 style={{ fontSize: 32, marginBottom: 8 }}>Connect a Sanity project to edit content</h1>
      <p style={{ color: '#57534e' }}>
        The site is running on the bundled seed dataset (<code style={code}>studio/seed/</code>). Sanity has no local
        Content Lake, so the Studio can only edit content once the site is connected to a Sanity project.
      </p>
      <ol style={{ paddingLeft: 20 }}>
        <li>
          Create a project at sanity.io/manage (or run <code style={code}>npx sanity init --bare</code>) and note its project id.
        </li>
        <li>
          Add this site&apos;s origin (e.g. <code style={code}>http://localhost:3000</code>) under API → CORS origins, with credentials allowed.
        </li>
        <li>
          Set <code style={code}>NEXT_PUBLIC_SANITY_PROJECT_ID</code> (and optionally <code style={code}>NEXT_PUBLIC_SANITY_DATASET</code>, default{' '}
          <code style={code}>production</code>) in <code style={code}>.env.local</code>.
        </li>
        <li>
          Import the seed content: <code style={code}>npm run sanity:import</code> (needs <code style={code}>SANITY_AUTH_TOKEN</code> with editor rights, or a
          prior <code style={code}>npx sanity login</code>).
        </li>
        <li>Restart the site and open /studio again.</li>
      </ol>
      <p style={{ color: '#57534e' }}>The README explains every variable and the webhook that refreshes pages after a publish.</p>
    </main>
  )
}
