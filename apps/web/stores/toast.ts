import { atom } from 'nanostores'

export type ToastVariant = 'default' | 'success' | 'destructive' | 'warning' | 'info'

export interface Toast {
	id: number
	title: string
	description?: string
	variant: ToastVariant
	duration: number
}

/** Only one toast shows at a time (1-core §9): a new one replaces the current. */
export const $toast = atom<Toast | null>(null)

const FLASH_KEY = 'kportal-flash'
let nextId = 1

export function toast(input: { title: string; description?: string; variant?: ToastVariant; duration?: number }) {
	$toast.set({ id: nextId++, variant: 'default', duration: 5_000, ...input })
}

export function dismissToast() {
	$toast.set(null)
}

/** Keeps a toast for the next page, for messages shown right before a navigation. */
export function flashToast(input: Parameters<typeof toast>[0]) {
	sessionStorage.setItem(FLASH_KEY, JSON.stringify(input))
}

export function showFlashedToast() {
	const saved = sessionStorage.getItem(FLASH_KEY)
	if (!saved) return
	sessionStorage.removeItem(FLASH_KEY)
	try {
		toast(JSON.parse(saved))
	} catch {}
}
