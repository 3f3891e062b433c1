import { type ConfirmRequest, confirmAction } from '../stores/confirm'
import { toast } from '../stores/toast'
import { ApiError, type ApiInput, type ApiResponse, type ApiRoute, type GetRoute, call, errorText } from './api'
import { invalidateReads } from './query'

interface MutationOptions<T> {
	/** The description may be worded from the answer (e.g. the name of the file created). */
	success: { title: string; description?: string | ((result: T) => string) }
	errorTitle: string
	errorFallback?: string
	/** The reads this write changes, by their routes: their cached answers are refetched afterwards. */
	invalidate?: readonly GetRoute[]
	/** Refusals about one field, by the server's code (e.g. DUPLICATE_CNPJ → cnpj): shown beside it, not as a toast. */
	fieldErrors?: FieldRefusals
}

export interface FieldRefusals {
	codes: Record<string, string>
	show: (field: string, message: string) => void
}

/** A write from a screen: the call, the success or error toast, and the refresh of what it changed. */
export async function mutate<K extends ApiRoute>(
	route: K,
	input: ApiInput<K>,
	opts: MutationOptions<ApiResponse<K>>
): Promise<ApiResponse<K> | null> {
	try {
		const result = await (call as (route: K, input: ApiInput<K>) => Promise<ApiResponse<K>>)(route, input)
		const { title, description } = opts.success
		toast({ title, description: typeof description === 'function' ? description(result) : description, variant: 'success' })
		invalidateReads(opts.invalidate ?? [])
		return result
	} catch (error) {
		const field = error instanceof ApiError && opts.fieldErrors?.codes[error.serverCode ?? '']
		if (field) {
			opts.fieldErrors?.show(field, errorText(error))
			return null
		}
		toast({
			title: opts.errorTitle,
			description: errorText(error, opts.errorFallback ?? 'Ocorreu um erro inesperado.'),
			variant: 'destructive'
		})
		return null
	}
}

/**
 * The toasts of a dialog that creates or edits one record: "Usuário criado" / "Empresa atualizada" (`feminine`),
 * "Erro ao criar usuário" / "Erro ao atualizar empresa".
 */
export function saveToasts(
	editing: boolean,
	what: {
		title: string
		noun: string
		feminine?: boolean
		description?: string
		invalidate: readonly GetRoute[]
		fieldErrors?: FieldRefusals
	}
): MutationOptions<unknown> {
	const done = `${editing ? 'atualizad' : 'criad'}${what.feminine ? 'a' : 'o'}`
	return {
		success: { title: `${what.title} ${done}`, description: what.description },
		errorTitle: `Erro ao ${editing ? 'atualizar' : 'criar'} ${what.noun}`,
		invalidate: what.invalidate,
		fieldErrors: what.fieldErrors
	}
}

type BodyOf<K extends ApiRoute> = ApiInput<K> extends { body: infer B } ? B : never
type ParamsOf<K extends ApiRoute> = ApiInput<K> extends { params: infer P } ? P : never

/**
 * The save of a dialog that creates or edits one record: PUT `routes.update` with the record's params when there
 * is one (`params` not null), else POST `routes.create`; with `saveToasts`' toasts and refresh.
 */
export function saveRecord<C extends ApiRoute, U extends ApiRoute>(
	routes: { create: C; update: U },
	params: ParamsOf<U> | null,
	body: BodyOf<C> & BodyOf<U>,
	what: Parameters<typeof saveToasts>[1]
): Promise<unknown> {
	const toasts = saveToasts(params !== null, what)
	return params !== null
		? mutate(routes.update, { params, body } as ApiInput<U>, toasts)
		: mutate(routes.create, { body } as ApiInput<C>, toasts)
}

export type ConfirmQuestion = Omit<ConfirmRequest, 'resolve'>

/** The question before a deletion: its title and message, an "Excluir" button in red. */
export function deleteQuestion(title: string, message: string): ConfirmQuestion {
	return { title, message, confirmLabel: 'Excluir', destructive: true }
}

/** Asks first (the confirm dialog), then writes as `mutate` does; null when the person declines or the write fails. */
export async function confirmThenMutate<K extends ApiRoute>(
	question: ConfirmQuestion,
	route: K,
	input: ApiInput<K>,
	opts: MutationOptions<ApiResponse<K>>
): Promise<ApiResponse<K> | null> {
	if (!(await confirmAction(question))) return null
	return mutate(route, input, opts)
}
