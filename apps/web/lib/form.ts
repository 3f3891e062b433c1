import { type FormEvent, useEffect, useRef, useState } from 'react'
import type { z } from 'zod'
import { toast } from '../stores/toast'

/** The first message of each invalid field, by field name (a message about the whole form under '_form'). */
export type FieldErrors = Record<string, string>

/**
 * Checks a form's input with the schema the server applies (its model.ts) and answers every invalid field at
 * once, each with the schema's own pt-BR sentence: the form shows them beside their fields.
 */
export function fieldErrors(schema: z.ZodType, input: unknown): FieldErrors {
	const result = schema.safeParse(input)
	if (result.success) return {}
	const errors: FieldErrors = {}
	for (const issue of result.error.issues) {
		const key = issue.path.length > 0 ? String(issue.path[0]) : '_form'
		errors[key] ??= issue.message
	}
	return errors
}

interface FormOptions<F, I> {
	/** The form's starting values, as its inputs hold them (text for numbers and money). */
	initial: F
	/** The values as the API's body: what is checked, and what is sent. */
	toInput: (values: F) => I
	/** Every invalid field of the input, with its message. */
	validate: (input: I, values: F) => FieldErrors
}

/**
 * The one form helper of the islands (issue 14, point 4): values, their setter, and on submit every invalid field
 * marked at once beside it. Until the first submit nothing is marked; afterwards the marks follow the typing, so a
 * corrected field clears at once. Errors only the server knows about one field (a duplicate CNPJ) are marked beside
 * it too (`setServerError`, e.g. from mutate's `fieldErrors`) until that field changes; the rest stay toasts.
 */
export function useForm<F extends object, I>({ initial, toInput, validate }: FormOptions<F, I>) {
	const [values, setValues] = useState<F>(initial)
	const [submitted, setSubmitted] = useState(false)
	const [pending, setPending] = useState(false)
	const [serverErrors, setServerErrors] = useState<FieldErrors>({})
	const errors = { ...serverErrors, ...(submitted ? validate(toInput(values), values) : {}) }
	// The field the server refused is focused once the form is back (not sending, its mark drawn): a focus asked for
	// while the request still held the form was lost.
	const focusRefused = useRef(false)
	useEffect(() => {
		if (!focusRefused.current || pending) return
		focusRefused.current = false
		focusFirstInvalid()
	}, [pending, serverErrors])

	function set<K extends keyof F>(key: K, value: F[K]) {
		setValues((v) => ({ ...v, [key]: value }))
		setServerErrors(({ [key as string]: _, ...rest }) => rest)
	}

	/** Marks the server's refusal beside its field and takes the person there. */
	function setServerError(field: string, message: string) {
		setServerErrors((e) => ({ ...e, [field]: message }))
		focusRefused.current = true
	}

	/** The submit handler: checks everything; when all is well, sends the API's input. */
	function submit(send: (input: I) => Promise<unknown>) {
		return async (event?: FormEvent) => {
			event?.preventDefault()
			setSubmitted(true)
			const input = toInput(values)
			if (Object.keys(validate(input, values)).length > 0) {
				// Take the person to the first marked field.
				requestAnimationFrame(() => focusFirstInvalid())
				return
			}
			setPending(true)
			try {
				await send(input)
			} finally {
				setPending(false)
			}
		}
	}

	/** A text field's props (TextField, SelectField...): its value, its message (`error`: another key) and its setter. */
	function text<K extends KeysOf<F, string>>(key: K, error: string = String(key)) {
		return { value: values[key] as string, error: errors[error], onValue: (value: string) => set(key, value as F[K]) }
	}

	/** A ToggleField's props: on or off, and its setter. */
	function toggle<K extends KeysOf<F, boolean>>(key: K) {
		return { checked: values[key] as boolean, onChecked: (checked: boolean) => set(key, checked as F[K]) }
	}

	return { values, set, setValues, errors, setServerError, submit, pending, text, toggle }
}

function focusFirstInvalid() {
	document.querySelector<HTMLElement>('dialog[open] [aria-invalid="true"], form [aria-invalid="true"]')?.focus()
}

/** The keys of F whose values are of type V. */
type KeysOf<F, V> = { [K in keyof F]: F[K] extends V ? K : never }[keyof F]

/** What a form dialog needs of a form (useForm, useZodForm): its submit handler, pending state and messages. */
export type FormHandle<I> = Pick<ReturnType<typeof useForm<object, I>>, 'submit' | 'pending' | 'errors'>

/**
 * A form checked by the schema the server applies (its model.ts), plus rules only the screen knows (e.g. no more
 * credits than available), worded like the schema's. What is sent is the API's input, not the parsed output.
 */
export function useZodForm<S extends z.ZodType, F extends object>({
	schema,
	initial,
	toInput,
	check
}: {
	schema: S
	initial: F
	toInput: (values: F) => unknown
	check?: (values: F) => FieldErrors
}) {
	return useForm<F, z.input<S>>({
		initial,
		toInput: (v) => toInput(v) as z.input<S>,
		validate: (input, values) => ({ ...fieldErrors(schema, input), ...check?.(values) })
	})
}

/** The API input a form's submit sends (for a `send` written apart from the FormDialog). */
export type FormInput<H> = H extends FormHandle<infer I> ? I : never

/**
 * A form's schema loaded when the form is first used (focused, edited, sent), not with the page, so zod stays off the
 * page's first load (issue 15). `schema` is null until it arrives. `need()` starts the load or joins it, and answers
 * the schema, or null once the person has been told (a toast titled `errorTitle`) that the form could not load.
 */
export function useSchemaOnDemand<S>(load: () => Promise<S>, errorTitle: string) {
	const [schema, setSchema] = useState<S | null>(null)
	const loading = useRef<Promise<S | null> | null>(null)
	function need(): Promise<S | null> {
		loading.current ??= load().then(
			(loaded) => {
				setSchema(() => loaded)
				return loaded
			},
			() => {
				loading.current = null
				toast({
					title: errorTitle,
					description: 'Não foi possível carregar o formulário. Verifique a conexão e tente novamente.',
					variant: 'destructive'
				})
				return null
			}
		)
		return loading.current
	}
	return { schema, need }
}
