import { toast } from '../stores/toast'
import { api, errorText, type ApiOptions } from './api'
import { invalidateKeys } from './query'

interface MutationOptions {
	success: { title: string; description?: string }
	errorTitle: string
	errorFallback?: string
	/** Cached lists to refetch afterwards: every key starting with one of these. */
	invalidate?: string[]
}

/** A write from a screen: the call, the success or error toast, and the refresh of what it changed. */
export async function mutate<T = unknown>(path: string, options: ApiOptions, opts: MutationOptions): Promise<T | null> {
	try {
		const result = await api<T>(path, options)
		toast({ ...opts.success, variant: 'success' })
		const prefixes = opts.invalidate ?? []
		if (prefixes.length) invalidateKeys((key) => prefixes.some((p) => key.startsWith(p)))
		return result
	} catch (error) {
		toast({ title: opts.errorTitle, description: errorText(error, opts.errorFallback ?? 'Ocorreu um erro inesperado.'), variant: 'destructive' })
		return null
	}
}
