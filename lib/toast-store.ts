/** A tiny global toast queue: any client component can `toast(...)`; <Toaster /> renders them. */
export type ToastVariant = 'success' | 'error' | 'info'
export type Toast = { id: number; title: string; description?: string; variant: ToastVariant }

type Listener = () => void
let toasts: Toast[] = []
let nextId = 1
const listeners = new Set<Listener>()
const EMPTY: Toast[] = []

function emit() {
  for (const listener of listeners) listener()
}

export function toast(input: Omit<Toast, 'id'>, durationMs = 6000): number {
  const id = nextId++
  toasts = [...toasts.slice(-2), { ...input, id }]
  emit()
  setTimeout(() => dismissToast(id), durationMs)
  return id
}

export function dismissToast(id: number): void {
  if (!toasts.some((item) => item.id === id)) return
  toasts = toasts.filter((item) => item.id !== id)
  emit()
}

export function subscribeToasts(listener: Listener): () => void {
  listeners.add(listener)
  return () => listeners.delete(listener)
}

export const getToasts = () => toasts
export const getServerToasts = () => EMPTY
