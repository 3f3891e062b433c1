/** One step of a rehearsal against a real service (check:asaas, check:evolution), as the screens list it. */
export interface RehearsalLine {
	name: string
	result: 'ok' | 'warning' | 'failed'
	text: string
}

const RESULT_TONE = { ok: ['badge-success', 'ok'], warning: ['badge-warning', 'atenção'], failed: ['badge-error', 'falhou'] } as const

/** A rehearsal's steps, each with its result, and the verdict below them. */
export function RehearsalSteps({ lines, ok, verdict }: { lines: RehearsalLine[]; ok: boolean; verdict: string }) {
	return (
		<div className="space-y-3" aria-live="polite">
			<ul className="space-y-2">
				{lines.map((s) => (
					<li key={s.name} className="flex gap-2 text-sm">
						<span className={`badge badge-soft shrink-0 ${RESULT_TONE[s.result][0]}`}>{RESULT_TONE[s.result][1]}</span>
						<span className="min-w-0 break-words">
							<strong>{s.name}:</strong> {s.text}
						</span>
					</li>
				))}
			</ul>
			<div role="status" className={`alert alert-soft ${ok ? 'alert-success' : 'alert-error'}`}>
				<span>{verdict}</span>
			</div>
		</div>
	)
}
