import { cnpjField, contract, figures, requiredText, withMessage, z } from '../core'
import { TEMPLATE_REQUIRED, sendTimeProblem } from '../messaging/model'
import {
	DUNNING_KIND_LABELS,
	DUNNING_LIMITS,
	DUNNING_SEND_LABELS,
	blockDaysProblem,
	stepDaysProblem,
	stepLabel,
	stepTemplateProblem,
	stepsProblem
} from './dunning-words'

export * from './dunning-words'

/** Whose schedule: a representante's own (the parameter is not needed); an administrador names the representative. */
export const DunningQuery = z.object({ representante: cnpjField.optional() })
export type DunningQuery = z.infer<typeof DunningQuery>

/** A field checked by the words' own rule (the screen tells the same before sending). */
const problemCheck =
	<T>(problem: (value: T) => string | null) =>
	(value: T, issue: { addIssue: (issue: { code: 'custom'; message: string }) => void }) => {
		const message = problem(value)
		if (message) issue.addIssue({ code: 'custom', message })
	}

const DunningStepBody = z.object({
	dias: z.number({ error: 'O dia do passo deve ser um número.' }).superRefine(problemCheck(stepDaysProblem)),
	template_mensagem: requiredText('Modelo da mensagem', DUNNING_LIMITS.template, TEMPLATE_REQUIRED),
	ativo: z.boolean({ error: 'Passo ativo deve ser verdadeiro ou falso.' })
})

/** PUT /api/regua-cobranca: the whole schedule, as the screen saves it. */
export const DunningBody = z.object({
	ativa: z.boolean({ error: 'Régua ativa deve ser verdadeiro ou falso.' }),
	passos: z
		.array(DunningStepBody, { error: 'Passos deve ser uma lista.' })
		.superRefine((steps, issue) => {
			const whole = stepsProblem(steps)
			if (whole) return issue.addIssue({ code: 'custom', message: whole })
			for (const step of steps) {
				const problem = stepTemplateProblem(step.template_mensagem)
				if (problem) issue.addIssue({ code: 'custom', message: `Passo "${stepLabel(step.dias)}": ${problem}` })
			}
		})
		// Kept in the order of the days: the screen and the messages read them so.
		.transform((steps) => [...steps].sort((a, b) => a.dias - b.dias)),
	horario_envio: z
		.string({ error: 'Horário de envio inválido: use HH:MM:SS.' })
		.superRefine(problemCheck(sendTimeProblem))
		.transform((v) => (v.length === 5 ? `${v}:00` : v)),
	enviar_fins_semana: z.boolean({ error: 'Enviar nos fins de semana deve ser verdadeiro ou falso.' }),
	bloquear_apos_dias: z
		.number({ error: 'Dias para o bloqueio deve ser um número (ou null para não bloquear).' })
		.superRefine(problemCheck(blockDaysProblem))
		.nullable()
})
export type DunningBody = z.infer<typeof DunningBody>

/** A representative's schedule as the screens show it (the defaults until it is saved). */
export const DunningView = z.object({
	representante_cnpj: z.string(),
	representante_nome: z.string(),
	ativa: z.boolean(),
	passos: z.array(z.object({ dias: z.number(), template_mensagem: z.string(), ativo: z.boolean() })),
	horario_envio: z.string(),
	enviar_fins_semana: z.boolean(),
	bloquear_apos_dias: z.number().nullable(),
	/** False while the representative runs on the defaults (nothing saved yet). */
	personalizada: z.boolean(),
	/** The representative's own WhatsApp (Evolution) instance the messages leave through; null = the portal's number. */
	instancia: z.string().nullable()
})
export type DunningView = z.infer<typeof DunningView>

/** 'Executar agora': what this run chose, blocked and sent, or `em_andamento` when another run holds the schedule. */
export const DunningRunResult = withMessage({
	...figures('escolhidas', 'bloqueadas', 'enviadas', 'falhas', 'ignoradas', 'a_enviar').shape,
	em_andamento: z.boolean()
})
export type DunningRunResult = z.infer<typeof DunningRunResult>

/** One message of the schedule about a parcel, as its card on Pagamentos de Parcelas lists it. */
export const DunningSendView = z.object({
	tipo: z.enum(Object.keys(DUNNING_KIND_LABELS) as [keyof typeof DUNNING_KIND_LABELS]),
	dias: z.number(),
	status: z.enum(Object.keys(DUNNING_SEND_LABELS) as [keyof typeof DUNNING_SEND_LABELS]),
	/** When it went out (or was chosen, while it waits or when it did not go). */
	em: z.string(),
	/** Why it did not go, or what failed. */
	erro: z.string().nullable()
})
export type DunningSendView = z.infer<typeof DunningSendView>

export const getDunningRoute = contract({
	method: 'GET',
	path: '/api/regua-cobranca',
	query: DunningQuery,
	response: DunningView,
	summary: 'A régua de cobrança de um representante (o seu, ou ?representante=<cnpj> para o administrador)'
})
export const saveDunningRoute = contract({
	method: 'PUT',
	path: '/api/regua-cobranca',
	query: DunningQuery,
	body: DunningBody,
	response: withMessage({ regua: DunningView }),
	summary: 'Salva a régua de cobrança: passos e modelos, horário, fins de semana e bloqueio por atraso'
})
export const runDunningRoute = contract({
	method: 'POST',
	path: '/api/regua-cobranca/executar',
	response: DunningRunResult,
	summary: 'Roda agora os passos de hoje de todas as réguas (sem esperar o horário) e diz quantas mensagens enviou'
})
