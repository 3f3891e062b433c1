import { useStore } from '@nanostores/react'
import { ChevronsDown } from 'lucide-react'
import { useEffect, useRef } from 'react'
import { errorText } from '../lib/api'
import type { MoreSource } from '../lib/list'

/**
 * The foot of a list that loads more as one scrolls (infiniteList): a sentinel that asks for the next page when
 * it comes near the screen, a 'Carregar mais' button for the keyboard (and browsers without IntersectionObserver),
 * a loading line while the page comes, and the end of the list.
 */
export function LoadMore({ more, noun }: { more: MoreSource; noun: string }) {
	const state = useStore(more.$state)
	const sentinel = useRef<HTMLDivElement>(null)
	// Observed again after every page: a short page on a tall screen leaves the sentinel in view, and the observer
	// reports it at once, so the list fills the screen.
	useEffect(() => {
		const element = sentinel.current
		if (!element || !state.hasNext || state.error || typeof IntersectionObserver === 'undefined') return
		const observer = new IntersectionObserver((entries) => entries.some((e) => e.isIntersecting) && more.load(), {
			rootMargin: '0px 0px 400px 0px'
		})
		observer.observe(element)
		return () => observer.disconnect()
	}, [more, state.hasNext, state.error, state.loaded])
	if (state.total === 0) return null
	return (
		<div ref={sentinel} className="flex flex-col items-center gap-2 py-3 text-sm text-base-content/70">
			{state.loading ? (
				<p role="status" className="flex items-center gap-2">
					<span className="loading loading-spinner loading-sm" aria-hidden="true" />
					Carregando mais {noun}...
				</p>
			) : state.error ? (
				<>
					<p role="alert" className="text-error">
						Erro ao carregar mais {noun}: {errorText(state.error)}
					</p>
					<button type="button" className="btn btn-sm" onClick={more.load}>
						Tentar novamente
					</button>
				</>
			) : state.hasNext ? (
				<button type="button" className="btn btn-sm" onClick={more.load}>
					<ChevronsDown className="size-4" aria-hidden="true" />
					Carregar mais
				</button>
			) : (
				<p>Fim da lista.</p>
			)}
			<p aria-live="polite">
				Mostrando {state.loaded} de {state.total} {noun}
			</p>
		</div>
	)
}
