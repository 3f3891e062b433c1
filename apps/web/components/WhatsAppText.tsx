/** WhatsApp's own marks as the client sees them: *negrito*, _itálico_, ~tachado~. */
export function WhatsAppText({ text }: { text: string }) {
	const parts = text.split(/(\*[^*\n]+\*|_[^_\n]+_|~[^~\n]+~)/g)
	return (
		<>
			{parts.map((part, i) => {
				const inner = part.slice(1, -1)
				const key = `${i}-${part}`
				if (part.length > 2 && part.startsWith('*') && part.endsWith('*')) return <strong key={key}>{inner}</strong>
				if (part.length > 2 && part.startsWith('_') && part.endsWith('_')) return <em key={key}>{inner}</em>
				if (part.length > 2 && part.startsWith('~') && part.endsWith('~')) return <s key={key}>{inner}</s>
				return part
			})}
		</>
	)
}

/** A message as it will arrive: the green bubble of a WhatsApp chat, with its marks. */
export function WhatsAppBubble({ text, testId }: { text: string; testId?: string }) {
	return (
		<div
			className="whitespace-pre-wrap break-words rounded-box bg-[#dcf8c6] p-3 text-sm text-black"
			aria-live="polite"
			data-testid={testId}
		>
			<WhatsAppText text={text} />
		</div>
	)
}

/** The template's variables as buttons, each putting {{name}} where the cursor is (`onInsert`); its meaning on hover. */
export function VariableButtons({
	variables,
	onInsert,
	legend,
	legendHidden = false
}: {
	variables: Readonly<Record<string, string>>
	onInsert: (name: string) => void
	legend: string
	legendHidden?: boolean
}) {
	return (
		<fieldset className="flex flex-wrap gap-1">
			<legend className={legendHidden ? 'sr-only' : 'mb-1 text-sm font-medium'}>{legend}</legend>
			{Object.entries(variables).map(([name, meaning]) => (
				<button key={name} type="button" className="badge badge-outline badge-sm" title={meaning} onClick={() => onInsert(name)}>
					{`{{${name}}}`}
				</button>
			))}
		</fieldset>
	)
}
