'use client'

import type { SupabaseClient } from '@supabase/supabase-js'
import { Fragment, useEffect, useState } from 'react'
import {
  fetchInboxOverview,
  formatDuration,
  formatShare,
  languageSeries,
  packageSeries,
  weekLabel,
  type InboxOverview as Overview,
  type Series,
} from '@/lib/admin/inbox-overview'

type Props = { client: SupabaseClient; /** Changes when the list reloads: the figures follow. */ version: number }

/** The series' colours, in order (each at least 3:1 against white, WCAG 1.4.11). */
const COLOURS = ['#9a3412', '#1c1917', '#0f766e', '#6d28d9', '#b45309', '#57534e']
const CHART = { width: 300, height: 150, top: 16, bottom: 22 }

/**
 * Above the list: the last 12 weeks of messages (a stacked bar per week, by language or by package)
 * and, over the last 30 days, the median time to an answer and the share answered within 24 hours.
 * The chart is a picture of the table beside it, which screen readers read instead (the figures are
 * the same). Computed by the database for administrators (contact_inbox_overview).
 */
export function InboxOverview({ client, version }: Props) {
  const [overview, setOverview] = useState<Overview | null>(null)
  const [failed, setFailed] = useState(false)
  const [byPackage, setByPackage] = useState(false)
  useEffect(() => {
    let cancelled = false
    fetchInboxOverview(client)
      .then((loaded) => !cancelled && (setOverview(loaded), setFailed(false)))
      .catch(() => !cancelled && setFailed(true))
    return () => {
      cancelled = true
    }
  }, [client, version])

  if (!overview)
    return failed ? (
      <p className="mt-6 text-sm text-muted" data-testid="overview-failed">
        Vue d’ensemble indisponible pour le moment.
      </p>
    ) : null
  const series = byPackage ? packageSeries(overview) : languageSeries()
  const { answers } = overview
  return (
    <section
      aria-labelledby="overview-title"
      className="mt-6 rounded-card border border-line bg-white p-5 sm:p-6"
      data-testid="overview"
    >
      <h2 id="overview-title" className="font-sans text-lg font-semibold text-ink">
        Vue d’ensemble
      </h2>
      <div className="mt-3 grid gap-x-8 gap-y-5 lg:grid-cols-[minmax(0,1fr)_minmax(0,1.8fr)]">
        <dl className="grid content-start gap-3 text-sm sm:grid-cols-2 lg:grid-cols-1">
          <div>
            <dt className="text-muted">Délai médian de réponse (30 derniers jours)</dt>
            <dd className="text-2xl font-semibold text-ink" data-testid="overview-median">
              {formatDuration(answers.median_seconds)}
            </dd>
          </div>
          <div>
            <dt className="text-muted">Répondus sous 24 h (30 derniers jours)</dt>
            <dd className="text-2xl font-semibold text-ink" data-testid="overview-share">
              {formatShare(answers.within_24h, answers.owed)}
              {answers.owed > 0 ? (
                <span className="ml-2 text-sm font-normal text-muted">
                  {answers.within_24h} sur {answers.owed}
                </span>
              ) : null}
            </dd>
          </div>
        </dl>
        <div>
          <div className="flex flex-wrap items-center justify-between gap-3">
            <h3 className="font-sans text-sm font-semibold text-ink">Messages par semaine (12 dernières semaines)</h3>
            <div
              role="group"
              aria-label="Répartition"
              className="inline-flex rounded-full border border-line p-0.5 text-sm"
            >
              {[false, true].map((packages) => (
                <button
                  key={String(packages)}
                  type="button"
                  aria-pressed={byPackage === packages}
                  onClick={() => setByPackage(packages)}
                  className="min-h-9 rounded-full px-3 font-semibold text-ink aria-pressed:bg-ink aria-pressed:text-paper"
                >
                  {packages ? 'Par forfait' : 'Par langue'}
                </button>
              ))}
            </div>
          </div>
          <WeeklyChart weeks={overview.weeks} series={series} />
          <ul className="mt-2 flex flex-wrap gap-x-4 gap-y-1 text-xs text-muted" aria-hidden="true">
            {series.map((item, index) => (
              <li key={item.key} className="inline-flex items-center gap-1.5">
                <svg viewBox="0 0 12 12" className="size-3">
                  <rect width="12" height="12" rx="2" fill={COLOURS[index % COLOURS.length]} />
                </svg>
                {item.label}
              </li>
            ))}
          </ul>
        </div>
      </div>
      {/* Hidden in a box: a table keeps its columns' width whatever width sr-only gives it, and pushed a
          phone's page sideways. */}
      <div className="sr-only">
        <table data-testid="overview-table">
          <caption>Messages par semaine, 12 dernières semaines</caption>
          <thead>
            <tr>
              <th scope="col">Semaine du</th>
              <th scope="col">Total</th>
              {[...languageSeries(), ...packageSeries(overview)].map((item) => (
                <th key={`${item.key}-${item.label}`} scope="col">
                  {item.label}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {overview.weeks.map((week) => (
              <tr key={week.week}>
                <th scope="row">{weekLabel(week.week)}</th>
                <td>{week.total}</td>
                {[...languageSeries(), ...packageSeries(overview)].map((item) => (
                  <td key={`${item.key}-${item.label}`}>{item.count(week)}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  )
}

/** Where a point of the drawing is, as a share of the chart's box (the words are laid over it in HTML). */
const percent = (value: number, of: number) => `${(value / of) * 100}%`

/**
 * Stacked bars, one per week; every third week named under its bar (they fit a 390-px phone). The bars
 * are drawn to the chart's width; the numbers and dates are HTML over them, so that they keep the page's
 * text size at any width (text inside the drawing would scale with it).
 */
function WeeklyChart({ weeks, series }: { weeks: Overview['weeks']; series: Series[] }) {
  const highest = Math.max(1, ...weeks.map((week) => week.total))
  const slot = CHART.width / weeks.length
  const plot = CHART.height - CHART.top - CHART.bottom
  const base = CHART.height - CHART.bottom
  const bars = weeks.map((week, index) => {
    let y = base
    const x = index * slot + slot * 0.15
    const stack = series.map((item) => {
      const height = (item.count(week) / highest) * plot
      y -= height
      return { key: item.key, y, height }
    })
    return { week, index, x, top: y, stack }
  })
  const named = (index: number) => index % 3 === (weeks.length - 1) % 3
  return (
    <div className="relative mt-3 text-[11px] leading-none text-stone-600" aria-hidden="true">
      <svg viewBox={`0 0 ${CHART.width} ${CHART.height}`} className="block h-auto w-full" data-testid="overview-chart">
        <line x1="0" x2={CHART.width} y1={base} y2={base} stroke="#e7e0d5" />
        {bars.map(({ week, x, stack }) => (
          <g key={week.week}>
            {stack.map(({ key, y, height }, order) =>
              height > 0 ? (
                <rect key={key} x={x} y={y} width={slot * 0.7} height={height} fill={COLOURS[order % COLOURS.length]} />
              ) : null,
            )}
          </g>
        ))}
      </svg>
      {bars.map(({ week, index, x, top }) => (
        <Fragment key={week.week}>
          {week.total > 0 ? (
            <span
              className="absolute -translate-x-1/2 -translate-y-full pb-0.5 text-stone-700"
              style={{ left: percent(x + slot * 0.35, CHART.width), top: percent(top, CHART.height) }}
            >
              {week.total}
            </span>
          ) : null}
          {named(index) ? (
            // The last week's date ends at the chart's edge rather than past it.
            <span
              className={`absolute whitespace-nowrap pt-1 ${index === weeks.length - 1 ? '-translate-x-full' : '-translate-x-1/2'}`}
              style={{
                left: percent(index === weeks.length - 1 ? CHART.width : x + slot * 0.35, CHART.width),
                top: percent(base, CHART.height),
              }}
            >
              {weekLabel(week.week)}
            </span>
          ) : null}
        </Fragment>
      ))}
    </div>
  )
}
