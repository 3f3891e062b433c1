import { AlertTriangle, RotateCw } from 'lucide-react'
import { Component, type ReactNode } from 'react'

/** The screen of 1-core §2.6, shown when a part of the page fails to render. */
export function ErrorFallback({ message }: { message: string }) {
	return (
		<div role="alert" className="mx-auto my-10 max-w-lg rounded-box border border-error/30 bg-base-100 p-8 text-center shadow">
			<AlertTriangle className="mx-auto mb-3 size-10 text-error" aria-hidden="true" />
			<h2 className="text-xl font-bold">Ops! Algo deu errado</h2>
			<p className="mt-2 text-base-content/70">Ocorreu um erro inesperado. Tente recarregar a página.</p>
			<details className="mt-4 text-left text-sm">
				<summary className="cursor-pointer font-medium">Detalhes do erro</summary>
				<pre className="mt-2 whitespace-pre-wrap break-words rounded bg-base-200 p-3">{message}</pre>
			</details>
			<button type="button" className="btn btn-primary mt-6" onClick={() => window.location.reload()}>
				<RotateCw className="size-4" /> Recarregar Página
			</button>
		</div>
	)
}

export class ErrorBoundary extends Component<{ children: ReactNode }, { error: Error | null }> {
	state = { error: null as Error | null }

	static getDerivedStateFromError(error: Error) {
		return { error }
	}

	render() {
		if (this.state.error) return <ErrorFallback message={this.state.error.message || String(this.state.error)} />
		return this.props.children
	}
}
