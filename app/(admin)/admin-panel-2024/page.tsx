import { AdminApp } from '@/components/admin/admin-app'

/** /admin-panel-2024: not linked anywhere, noindex (meta + X-Robots-Tag), absent from sitemap and robots. */
export default function AdminPage() {
  return <AdminApp />
}
