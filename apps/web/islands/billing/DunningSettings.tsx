import { useStore } from '@nanostores/react'
import { BellRing, ChevronUp, Eye, Pencil, Plus, Save, Trash2 } from 'lucide-react'
import { useMemo, useRef, useState } from 'react'
import {
	DUNNING_LIMITS,
	DUNNING_VARIABLES,
	type DunningStep,
	type DunningValues,
	type DunningView,
	WARNING_DAYS_BEFORE_BLOCK,
	blockDaysProblem,
	defaultStepTemplate,
	defaultSteps,
	stepDaysProblem,
	stepLabel,
	stepTemplateProblem,
	stepsProblem
} from '../../../../modules/billing/model'
import { addDaysIso, formatDate, isoDateInSaoPaulo } from '../../../../modules/core'
import { renderTemplate, sendTimeProblem } from '../../../../modules/messaging/reads'
import { VariableButtons, WhatsAppBubble } from '../../components/WhatsAppText'
import { ErrorPanel, Field, ToggleField } from '../../components/ui'
import { type GetRoute, errorText } from '../../lib/api'
import { usePending } from '../../lib/hooks'
import { mutate } from '../../lib/mutate'
import { routeStore } from '../../lib/query'

const INVALIDATE: readonly GetRoute[] = ['GET /api/regua-cobranca']

/** A step as its fields hold it: the day as typed. */
interface StepForm {
	key: number
	dias: string
	template: string
	ativo: boolean
}

interface Form {
	ativa: boolean
	horario: string
	finsDeSemana: boolean
	bloquear: boolean
	bloquearDias: string
	passos: StepForm[]
}

let nextKey = 0
const stepForm = (s: DunningStep): StepForm => ({ key: ++nextKey, dias: String(s.dias), template: s.template_mensagem, ativo: s.ativo })

function formOf(saved: DunningView): Form {
	return {
		ativa: saved.ativa,
		horario: saved.horario_envio,
		finsDeSemana: saved.enviar_fins_semana,
		bloquear: saved.bloquear_apos_dias !== null,
		bloquearDias: String(saved.bloquear_apos_dias ?? DUNNING_LIMITS.bloqueio.padrao),
		passos: saved.passos.map(stepForm)
	}
}

/**
 * What a step's message would say on the day it goes: an example parcel due `dias` days before today (Brazil), with
 * the representative's name; the codes as a client would get them.
 */
function exampleValues(dias: number, representante: string): DunningValues {
	const today = isoDateInSaoPaulo(new Date())
	return {
		empresa_nome: 'Empresa Exemplo Ltda',
		parcela: '2',
		total_parcelas: '12',
		valor: 'R$ 150,00',
		vencimento: formatDate(addDaysIso(today, -dias)),
		dias_atraso: String(Math.max(0, dias)),
		linha_digitavel: '23793.38128 60000.000003 00000.000400 1 84340000015000',
		pix_copia_cola: '00020101021226700014br.gov.bcb.pix…',
		link_boleto: 'https://www.asaas.com/b/pdf/exemplo',
		representante_nome: representante
	}
}

/** Each field's problem in the API's own words (dunning-words.ts), so nothing wrong is sent. */
function problemsOf(form: Form) {
	const steps = form.passos.map((s) => ({ dias: stepDaysProblem(s.dias), template: stepTemplateProblem(s.template) }))
	const valid = steps.every((s) => !s.dias)
	return {
		horario: sendTimeProblem(form.horario),
		bloquear: form.bloquear ? blockDaysProblem(form.bloquearDias) : null,
		steps,
		list: valid ? stepsProblem(form.passos.map((s) => ({ dias: Number(s.dias) }))) : null
	}
}
const hasProblem = (p: ReturnType<typeof problemsOf>) => !!(p.horario || p.bloquear || p.list || p.steps.some((s) => s.dias || s.template))

/** The first words of a message, without WhatsApp's marks: the summary of a closed step. */
const firstLine = (template: string) =>
	template
		.split('\n')
		.map((l) => l.replace(/[*_~]/g, '').trim())
		.find((l) => l.length > 0) ?? ''

/** A step: closed, one line (its day, its first words, on or off); open, its day, message, variables and preview. */
function StepCard({
	step,
	index,
	representante,
	problem,
	open,
	onOpen,
	onChange,
	onRemove
}: {
	step: StepForm
	index: number
	representante: string
	problem: { dias: string | null; template: string | null } | undefined
	open: boolean
	onOpen: (open: boolean) => void
	onChange: (next: StepForm) => void
	onRemove: () => void
}) {
	const textarea = useRef<HTMLTextAreaElement>(null)
	const [preview, setPreview] = useState(false)
	const dias = Number(step.dias)
	const named = problem?.dias ? `Passo ${index + 1}` : stepLabel(dias)
	const wrong = !!(problem?.dias || problem?.template)
	/** A variable goes where the cursor is (or replaces the selection). */
	function insertVariable(name: string) {
		const start = textarea.current?.selectionStart ?? step.template.length
		const end = textarea.current?.selectionEnd ?? start
		onChange({ ...step, template: `${step.template.slice(0, start)}{{${name}}}${step.template.slice(end)}` })
	}
	return (
		<li className={`rounded-box border p-3 sm:p-4 ${wrong ? 'border-error' : 'border-base-300'}`} aria-label={named}>
			<div className="flex items-center gap-3">
				<button
					type="button"
					className="min-w-0 grow text-left"
					onClick={() => onOpen(!open)}
					aria-expanded={open}
					aria-label={`${open ? 'Fechar' : 'Editar'} o passo ${named}`}
				>
					<span className={`block font-medium ${step.ativo ? '' : 'text-base-content/70 line-through'}`}>{named}</span>
					{!open && <span className="block truncate text-sm text-base-content/70">{firstLine(step.template) || 'Sem mensagem'}</span>}
				</button>
				<ToggleField
					label={<span className="sr-only sm:not-sr-only">Ativo</span>}
					checked={step.ativo}
					onChecked={(ativo) => onChange({ ...step, ativo })}
					toggleClassName="toggle-sm toggle-success"
					className="flex shrink-0 items-center gap-2 text-sm"
				/>
				<button type="button" className="btn btn-ghost btn-sm shrink-0" onClick={() => onOpen(!open)} tabIndex={-1} aria-hidden="true">
					{open ? <ChevronUp className="size-4" /> : <Pencil className="size-4" />}
				</button>
			</div>
			{open && (
				<div className="mt-3 space-y-3">
					<div className="flex flex-wrap items-end gap-3">
						<Field label="Dia do passo" hint="Antes do vencimento: negativo; no dia: 0" error={problem?.dias} className="w-64">
							<input
								type="number"
								className="input w-full"
								min={DUNNING_LIMITS.dias.min}
								max={DUNNING_LIMITS.dias.max}
								value={step.dias}
								onChange={(e) => onChange({ ...step, dias: e.target.value })}
							/>
						</Field>
						<button type="button" className="btn btn-ghost btn-sm ml-auto text-error" onClick={onRemove}>
							<Trash2 className="size-4" aria-hidden="true" />
							Remover passo
						</button>
					</div>
					<div className="grid gap-3 lg:grid-cols-2">
						<Field label="Mensagem" error={problem?.template}>
							<textarea
								ref={textarea}
								className="textarea w-full font-mono text-sm"
								rows={8}
								maxLength={DUNNING_LIMITS.template}
								value={step.template}
								onChange={(e) => onChange({ ...step, template: e.target.value })}
							/>
						</Field>
						<div className="space-y-2">
							<VariableButtons variables={DUNNING_VARIABLES} onInsert={insertVariable} legend="Inserir variável" />
							<div className="flex flex-wrap gap-2">
								<button type="button" className="btn btn-ghost btn-xs" onClick={() => setPreview(!preview)} aria-expanded={preview}>
									<Eye className="size-3.5" aria-hidden="true" />
									{preview ? 'Ocultar prévia' : 'Pré-visualizar'}
								</button>
								<button
									type="button"
									className="btn btn-ghost btn-xs"
									disabled={!!problem?.dias}
									onClick={() => onChange({ ...step, template: defaultStepTemplate(dias) })}
								>
									Usar o modelo padrão
								</button>
							</div>
							{preview && (
								<>
									<p className="text-xs text-base-content/70">Exemplo: uma parcela de R$ 150,00, no dia em que este passo é enviado.</p>
									<WhatsAppBubble
										text={renderTemplate(step.template, exampleValues(problem?.dias ? 0 : dias, representante))}
										testId="dunning-preview"
									/>
								</>
							)}
						</div>
					</div>
				</div>
			)}
		</li>
	)
}

function ScheduleForm({ saved, representante }: { saved: DunningView; representante?: string }) {
	const [form, setForm] = useState(() => formOf(saved))
	const [shown, setShown] = useState(false)
	// The step being edited (one at a time, so the list stays short on a phone); a refused save opens the wrong ones.
	const [opened, setOpened] = useState<number | null>(null)
	const problems = problemsOf(form)
	const set = (changes: Partial<Form>) => setForm((f) => ({ ...f, ...changes }))
	const setStep = (key: number, next: StepForm) => setForm((f) => ({ ...f, passos: f.passos.map((s) => (s.key === key ? next : s)) }))
	const [saving, save] = usePending(async () => {
		setShown(true)
		if (hasProblem(problems)) return
		await mutate(
			'PUT /api/regua-cobranca',
			{
				query: representante ? { representante } : {},
				body: {
					ativa: form.ativa,
					passos: form.passos.map((s) => ({ dias: Number(s.dias), template_mensagem: s.template.trim(), ativo: s.ativo })),
					horario_envio: form.horario,
					enviar_fins_semana: form.finsDeSemana,
					bloquear_apos_dias: form.bloquear ? Number(form.bloquearDias) : null
				}
			},
			{ success: { title: 'Régua de cobrança salva' }, errorTitle: 'Erro ao salvar a régua de cobrança', invalidate: INVALIDATE }
		)
	})
	const visible = (message: string | null) => (shown ? message : null)
	const blockDays = Number(form.bloquearDias)
	return (
		<form
			className="space-y-5"
			noValidate
			onSubmit={(e) => {
				e.preventDefault()
				save()
			}}
		>
			<div className="space-y-3">
				<ToggleField
					label={<span className="font-medium">Régua ativa: enviar lembretes das parcelas por WhatsApp</span>}
					checked={form.ativa}
					onChecked={(ativa) => set({ ativa })}
				/>
				<p className="text-sm text-base-content/70">
					As mensagens saem pelo {saved.instancia ? `seu WhatsApp (instância ${saved.instancia})` : 'WhatsApp do portal'}, no horário
					escolhido, uma vez por parcela e passo; nunca depois do pagamento, e nunca para quem respondeu PARAR ao bot. Os lembretes do
					próprio Asaas ficam desligados para estes clientes.
				</p>
			</div>
			<div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
				<Field label="Horário de envio" error={visible(problems.horario)}>
					<input type="time" step={1} className="input w-full" value={form.horario} onChange={(e) => set({ horario: e.target.value })} />
				</Field>
				<label className="flex cursor-pointer items-center gap-2 self-end pb-2 text-sm">
					<input
						type="checkbox"
						className="checkbox checkbox-sm"
						checked={form.finsDeSemana}
						onChange={(e) => set({ finsDeSemana: e.target.checked })}
					/>
					Enviar nos fins de semana
				</label>
			</div>
			<div className="space-y-3 rounded-box border border-base-300 p-3 sm:p-4">
				<ToggleField
					label={<span className="font-medium">Bloquear os sistemas de quem atrasar</span>}
					checked={form.bloquear}
					onChecked={(bloquear) => set({ bloquear })}
					toggleClassName="toggle-error"
				/>
				{form.bloquear && (
					<div className="flex flex-wrap items-end gap-3">
						<Field
							label="Dias de atraso até o bloqueio"
							hint={`De ${DUNNING_LIMITS.bloqueio.min} a ${DUNNING_LIMITS.bloqueio.max}`}
							error={visible(problems.bloquear)}
							className="w-56"
						>
							<input
								type="number"
								className="input w-full"
								min={DUNNING_LIMITS.bloqueio.min}
								max={DUNNING_LIMITS.bloqueio.max}
								value={form.bloquearDias}
								onChange={(e) => set({ bloquearDias: e.target.value })}
							/>
						</Field>
						{!problems.bloquear && (
							<p className="min-w-48 grow pb-2 text-sm text-base-content/70">
								O cliente recebe um aviso {Math.min(WARNING_DAYS_BEFORE_BLOCK, blockDays - 1)} dia(s) antes; com {blockDays} dias de atraso
								os sistemas param, com a mensagem de regularizar e o seu contato. O pagamento desbloqueia sozinho, em segundos.
							</p>
						)}
					</div>
				)}
			</div>
			<section className="space-y-3" aria-labelledby="dunning-steps">
				<div className="flex flex-wrap items-center justify-between gap-2">
					<h4 id="dunning-steps" className="font-semibold">
						Passos ({form.passos.length})
					</h4>
					<div className="flex flex-wrap gap-2">
						<button type="button" className="btn btn-ghost btn-sm" onClick={() => set({ passos: defaultSteps().map(stepForm) })}>
							Restaurar os passos padrão
						</button>
						<button
							type="button"
							className="btn btn-sm"
							disabled={form.passos.length >= DUNNING_LIMITS.passos}
							onClick={() => {
								const added = stepForm({ dias: 3, template_mensagem: defaultStepTemplate(3), ativo: true })
								set({ passos: [...form.passos, added] })
								setOpened(added.key)
							}}
						>
							<Plus className="size-4" aria-hidden="true" />
							Adicionar passo
						</button>
					</div>
				</div>
				{shown && problems.list && (
					<p className="text-sm text-error" role="alert">
						{problems.list}
					</p>
				)}
				{form.passos.length === 0 && <p className="text-sm text-base-content/70">Nenhum passo: nenhum lembrete será enviado.</p>}
				<ol className="space-y-3">
					{form.passos.map((s, i) => (
						<StepCard
							key={s.key}
							step={s}
							index={i}
							representante={saved.representante_nome}
							problem={shown ? problems.steps[i] : undefined}
							open={opened === s.key || (shown && !!(problems.steps[i]?.dias || problems.steps[i]?.template))}
							onOpen={(open) => setOpened(open ? s.key : null)}
							onChange={(next) => setStep(s.key, next)}
							onRemove={() => set({ passos: form.passos.filter((p) => p.key !== s.key) })}
						/>
					))}
				</ol>
			</section>
			<div className="flex justify-end">
				<button type="submit" className="btn btn-primary" disabled={saving}>
					{saving ? <span className="loading loading-spinner loading-sm" /> : <Save className="size-4" aria-hidden="true" />}
					Salvar régua
				</button>
			</div>
		</form>
	)
}

/**
 * The reminder schedule (régua de cobrança) of a representative: their own (Configurações Financeiras, in its card),
 * or the one an administrador names (`representante`, in Admin Financeiro's dialog, without the card).
 */
export function DunningSettings({ representante }: { representante?: string }) {
	const $schedule = useMemo(() => routeStore('GET /api/regua-cobranca', representante ? { representante } : {}), [representante])
	const { data, loading, error } = useStore($schedule)
	if (error)
		return <ErrorPanel title="Erro ao carregar a régua de cobrança" message={errorText(error)} onRetry={() => $schedule.revalidate()} />
	if (loading || !data) return <div className="skeleton h-96 w-full" role="status" aria-busy="true" aria-label="Carregando" />
	const form = <ScheduleForm key={JSON.stringify(data)} saved={data} representante={representante} />
	if (representante) return form
	return (
		<section className="max-w-5xl space-y-4 rounded-box border border-base-300 bg-base-100 p-4 sm:p-6" aria-labelledby="dunning-title">
			<div className="flex flex-wrap items-center justify-between gap-2">
				<h3 id="dunning-title" className="flex items-center gap-2 text-lg font-semibold">
					<BellRing className="size-5" aria-hidden="true" />
					Régua de cobrança
				</h3>
				<span className={`badge badge-soft ${data.ativa ? 'badge-success' : 'badge-ghost'}`}>{data.ativa ? 'Ativa' : 'Desligada'}</span>
			</div>
			{form}
		</section>
	)
}
