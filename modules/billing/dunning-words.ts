import { type TemplateVariables, templateProblem } from '../messaging/reads'

/**
 * The reminder schedule's words and rules (régua de cobrança, issue 37) as plain code without the schema library: the
 * Config Asaas and Admin Financeiro screens read them on first load. Re-exported by dunning-model.ts.
 */

/** The variables a step's message may use, and what each becomes. */
export const DUNNING_VARIABLES = {
	empresa_nome: 'razão social da empresa',
	parcela: 'número da parcela',
	total_parcelas: 'quantas parcelas o carnê tem',
	valor: 'valor da parcela (R$)',
	vencimento: 'data de vencimento da parcela (dd/mm/aaaa)',
	dias_atraso: 'dias de atraso (0 até o vencimento)',
	linha_digitavel: 'linha digitável do boleto',
	pix_copia_cola: 'código PIX copia e cola',
	link_boleto: 'link do boleto ou da fatura',
	representante_nome: 'nome do representante'
} as const satisfies TemplateVariables
export type DunningValues = Record<keyof typeof DUNNING_VARIABLES, string>

/** One step of the schedule: `dias` before (negative), on (0) or after (positive) the due date. */
export interface DunningStep {
	dias: number
	template_mensagem: string
	ativo: boolean
}

/** The limits of a schedule, shown beside the fields and checked by the API (dunning-model.ts). */
export const DUNNING_LIMITS = {
	/** A step from 30 days before the due date to 90 days after it. */
	dias: { min: -30, max: 90 },
	passos: 12,
	template: 4000,
	/** Blocking after 2 to 90 days overdue (the warning goes out before, see WARNING_DAYS_BEFORE_BLOCK). */
	bloqueio: { min: 2, max: 90, padrao: 10 }
} as const

/** The warning goes this many days before the block (never before the first day overdue). */
export const WARNING_DAYS_BEFORE_BLOCK = 3
/** A step whose day fell on a day without sends (a weekend off, the portal stopped) still goes out this many days late. */
export const LATE_STEP_DAYS = 3

/** The day overdue on which the warning before a block goes out (blocking after `blockAfter` days). */
export const warningDay = (blockAfter: number) => Math.max(1, blockAfter - WARNING_DAYS_BEFORE_BLOCK)

/** "3 dias antes do vencimento", "No dia do vencimento", "1 dia após o vencimento". */
export function stepLabel(dias: number): string {
	if (dias === 0) return 'No dia do vencimento'
	const n = Math.abs(dias)
	return `${n} ${n === 1 ? 'dia' : 'dias'} ${dias < 0 ? 'antes do' : 'após o'} vencimento`
}

const sign = '\n\n_{{representante_nome}}_'
const pay = '\n\nBoleto: {{link_boleto}}\nPIX copia e cola: {{pix_copia_cola}}'
const paid = '\n\nSe já pagou, desconsidere esta mensagem.'

/** The portal's own message for a step, in WhatsApp style. */
export function defaultStepTemplate(dias: number): string {
	if (dias < 0)
		return `📅 *Lembrete de vencimento*\n\nOlá, *{{empresa_nome}}*!\n\nA parcela {{parcela}}/{{total_parcelas}} de *{{valor}}* vence em *{{vencimento}}*.${pay}${sign}`
	if (dias === 0)
		return `⏰ *A parcela vence hoje*\n\nOlá, *{{empresa_nome}}*!\n\nA parcela {{parcela}}/{{total_parcelas}} de *{{valor}}* vence hoje, *{{vencimento}}*.${pay}${paid}${sign}`
	return `⚠️ *Parcela em atraso*\n\nOlá, *{{empresa_nome}}*.\n\nA parcela {{parcela}}/{{total_parcelas}} de *{{valor}}* venceu em *{{vencimento}}* e está em aberto há {{dias_atraso}} dia(s).${pay}${paid}${sign}`
}

/**
 * The default schedule: 3 days before, on the day, 1 day after, then every 7 days while overdue up to 30 days —
 * stored as the explicit steps 8, 15, 22 and 29, so each can be edited or switched off on its own.
 */
export const DEFAULT_STEP_DAYS = [-3, 0, 1, 8, 15, 22, 29] as const
export const DUNNING_DEFAULTS = {
	ativa: true,
	horario_envio: '09:00:00',
	enviar_fins_semana: false,
	bloquear_apos_dias: null as number | null
}
export const defaultSteps = (): DunningStep[] =>
	DEFAULT_STEP_DAYS.map((dias) => ({ dias, template_mensagem: defaultStepTemplate(dias), ativo: true }))

/** What the screen tells about a step's message as it is typed, in the API's words; null when it is good. */
export function stepTemplateProblem(template: string): string | null {
	return templateProblem(template, DUNNING_VARIABLES)
}

/** What is wrong with the list of steps as a whole (two on the same day, too many); null when nothing. */
export function stepsProblem(steps: readonly Pick<DunningStep, 'dias'>[]): string | null {
	if (steps.length > DUNNING_LIMITS.passos) return `No máximo ${DUNNING_LIMITS.passos} passos na régua.`
	const seen = new Set<number>()
	for (const { dias } of steps) {
		if (seen.has(dias)) return `Dois passos no mesmo dia (${stepLabel(dias).toLowerCase()}): deixe um só.`
		seen.add(dias)
	}
	return null
}

/** What is wrong with a step's day, as its field holds it (text) or the API gets it; null when it is good. */
export function stepDaysProblem(value: number | string): string | null {
	if (typeof value === 'string' && value.trim() === '') return 'Informe o dia do passo.'
	const days = Number(value)
	const { min, max } = DUNNING_LIMITS.dias
	if (!Number.isInteger(days)) return 'O dia do passo deve ser um número inteiro.'
	return days < min || days > max ? `O dia do passo vai de ${min} (antes do vencimento) a ${max} (após).` : null
}

/** What is wrong with the days overdue before a block; null when it is good. */
export function blockDaysProblem(value: number | string): string | null {
	if (typeof value === 'string' && value.trim() === '') return 'Informe após quantos dias de atraso a empresa é bloqueada.'
	const days = Number(value)
	const { min, max } = DUNNING_LIMITS.bloqueio
	if (!Number.isInteger(days)) return 'Dias para o bloqueio deve ser um número inteiro.'
	return days < min || days > max ? `Bloqueio: de ${min} a ${max} dias de atraso.` : null
}

/** The kinds of message the schedule sends, as the parcel's card names them. */
export const DUNNING_KIND_LABELS = {
	lembrete: 'Lembrete',
	aviso_bloqueio: 'Aviso de bloqueio',
	desbloqueio: 'Desbloqueio'
} as const
export type DunningKind = keyof typeof DUNNING_KIND_LABELS

/** The states of a schedule's message, as the parcel's card shows them. */
export const DUNNING_SEND_LABELS = {
	pendente: 'Na fila',
	enviando: 'Enviando',
	enviada: 'Enviada',
	falhou: 'Falhou',
	incerta: 'Incerta',
	ignorada: 'Não enviada'
} as const
export type DunningSendStatus = keyof typeof DUNNING_SEND_LABELS
