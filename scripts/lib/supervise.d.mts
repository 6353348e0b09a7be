import type { ChildProcess } from 'node:child_process'

export type Supervised = { readonly child: ChildProcess; stop: (signal?: NodeJS.Signals) => Promise<void> }
export function supervise(
  name: string,
  start: () => Promise<ChildProcess>,
  options: { maxRestarts?: number; windowMs?: number; onGiveUp: (message: string) => void; log?: (line: string) => void },
): Promise<Supervised>
