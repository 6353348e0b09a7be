import type { ChildProcess, StdioOptions } from 'node:child_process'

export function usesLocalContentLake(env?: NodeJS.ProcessEnv): boolean
export function localContentLakePort(env?: NodeJS.ProcessEnv): number
export function contentLakeStatus(port: number): Promise<'ours' | 'other' | 'free'>
export function startContentLake(args: string[], options?: { stdio?: StdioOptions; env?: Record<string, string> }): Promise<ChildProcess>
export function contentLakePortOrExit(port: number): Promise<'ours' | 'free'>
