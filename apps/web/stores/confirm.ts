import { atom } from 'nanostores'

export interface ConfirmRequest {
	title: string
	message: string
	confirmLabel?: string
	/** The button that declines ('Cancelar' unless said; 'Voltar' where the action itself is a cancellation). */
	cancelLabel?: string
	destructive?: boolean
	resolve: (ok: boolean) => void
}

export const $confirm = atom<ConfirmRequest | null>(null)

/** Asks before a destructive action; resolves true only when the person confirms. */
export function confirmAction(request: Omit<ConfirmRequest, 'resolve'>): Promise<boolean> {
	$confirm.get()?.resolve(false)
	return new Promise((resolve) => $confirm.set({ ...request, resolve }))
}

export function answerConfirm(ok: boolean) {
	const current = $confirm.get()
	$confirm.set(null)
	current?.resolve(ok)
}
