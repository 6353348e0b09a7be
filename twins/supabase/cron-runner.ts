import type { Database } from './database.ts'

/*
 * The twin's pg_cron: the jobs a project's migrations put in `cron.job` (through cron.schedule, which
 * bootstrap.sql defines with pg_cron's signatures) are run here. A hosted project's pg_cron runs them
 * on schedule; a laptop is often asleep at the scheduled minute, so the twin also runs every active
 * job once at start: a daily purge then happens at least once a session. Each run is one transaction
 * as postgres (the role hosted jobs run as), and a failure is logged, never fatal.
 *
 * Schedules read here, in UTC as pg_cron reads them by default: five fields whose day-of-month, month
 * and day-of-week are `*`, with minute and hour each `*`, a number, `*∕N` or a comma list of those;
 * `@hourly`, `@daily`, `@midnight`; `@reboot` (start only). Left out: ranges (`1-5`), named months or
 * days, any day/month/weekday other than `*`, `@weekly` and longer, `N seconds`: such a job runs
 * at start only, and its schedule is logged as unsupported. Jobs are read again every minute, so one
 * scheduled (or unscheduled) while the twin runs is picked up.
 */

export type CronJob = { jobid: number; jobname: string | null; schedule: string; command: string }

/** When a job fires (UTC minutes and hours); `reboot`: at start only. */
export type Schedule = { minutes: Set<number>; hours: Set<number> }

const range = (from: number, to: number, step = 1) => {
  const values = new Set<number>()
  for (let value = from; value <= to; value += step) values.add(value)
  return values
}

/** One minute or hour field: `*`, `*∕N`, `N`, or a comma list of them; null when not one of those. */
function parseField(text: string, max: number): Set<number> | null {
  const values = new Set<number>()
  for (const item of text.split(',')) {
    const every = /^\*(?:\/(\d+))?$/.exec(item)
    if (every) {
      const step = every[1] === undefined ? 1 : Number(every[1])
      if (step < 1 || step > max) return null
      for (const value of range(0, max, step)) values.add(value)
    } else if (/^\d+$/.test(item) && Number(item) <= max) {
      values.add(Number(item))
    } else {
      return null
    }
  }
  return values
}

/** The schedule as the runner reads it, or null when it is outside the subset above. */
export function parseSchedule(text: string): Schedule | null {
  const schedule = text.trim()
  if (schedule === '@hourly') return { minutes: new Set([0]), hours: range(0, 23) }
  if (schedule === '@daily' || schedule === '@midnight') return { minutes: new Set([0]), hours: new Set([0]) }
  if (schedule === '@reboot') return { minutes: new Set(), hours: new Set() }
  const fields = schedule.split(/\s+/)
  if (fields.length !== 5 || fields.slice(2).some((field) => field !== '*')) return null
  const minutes = parseField(fields[0], 59)
  const hours = parseField(fields[1], 23)
  return minutes && hours ? { minutes, hours } : null
}

/** Whether the schedule fires in the minute `at` falls in (UTC). */
export function isDue(schedule: Schedule, at: Date): boolean {
  return schedule.minutes.has(at.getUTCMinutes()) && schedule.hours.has(at.getUTCHours())
}

type RunnerOptions = {
  database: Pick<Database, 'db'>
  log: (entry: Record<string, unknown>) => void
}

/**
 * Runs every active job once, then each on its schedule until stop(). Resolves once the runs at
 * start are done, so a twin that answers has already run them.
 */
export async function startCronRunner({ database, log }: RunnerOptions) {
  let stopped = false
  let timer: NodeJS.Timeout | undefined
  let current: Promise<void> = Promise.resolve()
  const unsupported = new Set<string>()

  async function activeJobs(): Promise<CronJob[]> {
    // A project folder whose bootstrap has no cron schema has no job.
    const [{ present }] = (
      await database.db.query<{ present: boolean }>(`select to_regclass('cron.job') is not null as present`)
    ).rows
    if (!present) return []
    const { rows } = await database.db.query<CronJob>(
      'select jobid::int as jobid, jobname::text as jobname, schedule, command from cron.job where active order by jobid',
    )
    return rows
  }

  /** Runs one job and records the run in cron.job_run_details; only a failure is logged. */
  async function run(job: CronJob, reason: 'start' | 'schedule') {
    const name = job.jobname ?? `job ${job.jobid}`
    const started = new Date()
    let failure: string | null = null
    try {
      // One simple query: Postgres runs it as one implicit transaction, all of it or none.
      await database.db.exec(`select set_config('role', 'postgres', true);\n${job.command}`)
    } catch (error) {
      failure = error instanceof Error ? error.message : String(error)
      log({ event: 'cron.run', job: name, reason, outcome: 'failed', error: failure })
    }
    await database.db
      .query(
        `with old as (delete from cron.job_run_details where end_time < now() - interval '7 days')
         insert into cron.job_run_details (jobid, database, username, command, status, return_message, start_time, end_time)
         values ($1, current_database(), 'postgres', $2, $3, $4, $5, now())`,
        [job.jobid, job.command, failure ? 'failed' : 'succeeded', failure ?? 'done', started.toISOString()],
      )
      .catch((error: unknown) =>
        log({ event: 'cron.error', job: name, error: error instanceof Error ? error.message : String(error) }),
      )
  }

  async function runAll(reason: 'start' | 'schedule', at?: Date) {
    let jobs: CronJob[]
    try {
      jobs = await activeJobs()
    } catch (error) {
      log({ event: 'cron.error', error: error instanceof Error ? error.message : String(error) })
      return
    }
    for (const job of jobs) {
      if (stopped) return
      const schedule = parseSchedule(job.schedule)
      if (!schedule && !unsupported.has(job.schedule)) {
        unsupported.add(job.schedule)
        log({ event: 'cron.unsupported_schedule', job: job.jobname ?? job.jobid, schedule: job.schedule })
      }
      if (reason === 'start' || (schedule && at && isDue(schedule, at))) await run(job, reason)
    }
  }

  /** At each minute's start: the jobs due in that minute, one after the other (a minute missed while
   *  the machine slept is not made up: pg_cron does not either). */
  let lastMinute = 0
  function nextTick() {
    if (stopped) return
    timer = setTimeout(
      () => {
        // Rounded: a timer may fire a millisecond early, or late; never twice for one minute.
        const minute = Math.round(Date.now() / 60_000) * 60_000
        const due = minute > lastMinute
        lastMinute = Math.max(minute, lastMinute)
        current = (due ? runAll('schedule', new Date(minute)) : Promise.resolve()).finally(nextTick)
      },
      60_000 - (Date.now() % 60_000),
    )
    timer.unref()
  }

  current = runAll('start')
  await current
  nextTick()

  return {
    /** Stops scheduling and waits for a run in progress. */
    stop: async () => {
      stopped = true
      clearTimeout(timer)
      await current
    },
  }
}
