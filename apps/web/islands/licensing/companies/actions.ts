import {
	type BulkAction,
	type CompanyPatch,
	SYSTEM_CATALOGUE,
	type SystemEntry,
	anySystemActive
} from '../../../../../modules/companies/model'
import { call, errorText } from '../../../lib/api'
import { confirmThenMutate, deleteQuestion, mutate } from '../../../lib/mutate'
import { COMPANY_KEYS, type Company } from '../../../stores/companies'
import { confirmAction } from '../../../stores/confirm'
import { toast } from '../../../stores/toast'
import { $allMatching, $selected, clearSelection, currentFilter } from './list'

/** The actions of a company's row and menu (1-core §2.8): each asks first where the spec says so, then calls the API. */

const BLOCK_ALL = (value: 'S' | 'N'): CompanyPatch => Object.fromEntries(SYSTEM_CATALOGUE.map((s) => [s.flag, value]))

function patch(c: Company, body: CompanyPatch, success: string, errorTitle = 'Falha ao executar a ação solicitada.') {
	return mutate(
		'PATCH /api/companies/:id',
		{ params: { id: c.codigo }, body },
		{ success: { title: success, description: c.razao }, errorTitle, invalidate: COMPANY_KEYS }
	)
}

export async function toggleAllSystems(c: Company) {
	const block = anySystemActive(c)
	const ok = await confirmAction({
		title: block ? 'Bloquear todos os sistemas?' : 'Desbloquear todos os sistemas?',
		message: `${c.razao}: ${block ? 'os cinco sistemas deixarão de funcionar' : 'os cinco sistemas voltarão a funcionar'}.`,
		confirmLabel: block ? 'Bloquear' : 'Desbloquear',
		destructive: block
	})
	if (ok) await patch(c, BLOCK_ALL(block ? 'S' : 'N'), block ? 'Sistemas bloqueados' : 'Sistemas desbloqueados')
}

/** One system's badge: blocking or unblocking it asks first, naming the company and the system (issue 14, point 3). */
export async function toggleSystem(c: Company, system: SystemEntry) {
	const block = c[system.flag] === 'N'
	const ok = await confirmAction({
		title: block ? `Bloquear ${system.name}?` : `Desbloquear ${system.name}?`,
		message: block
			? `${c.razao}: o ${system.name} deixará de funcionar nos computadores da empresa.`
			: `${c.razao}: o ${system.name} voltará a funcionar nos computadores da empresa.`,
		confirmLabel: block ? 'Bloquear' : 'Desbloquear',
		destructive: block
	})
	if (ok) await patch(c, { [system.flag]: block ? 'S' : 'N' }, block ? `${system.name} bloqueado` : `${system.name} desbloqueado`)
}

export function toggleNotices(c: Company) {
	const on = c.exibir_aviso !== 'S'
	return patch(c, { exibir_aviso: on ? 'S' : 'N' }, on ? 'Avisos ativados' : 'Avisos desativados', 'Erro ao atualizar aviso')
}

export function toggleMaintenance(c: Company) {
	const on = c.manutencao !== 'S'
	return mutate(
		'PUT /api/companies/:id/maintenance',
		{ params: { id: c.codigo }, body: { manutencao: on ? 'S' : 'N' } },
		{
			success: { title: on ? 'Manutenção ativada' : 'Manutenção desativada', description: c.razao },
			errorTitle: 'Erro ao atualizar status de manutenção',
			invalidate: COMPANY_KEYS
		}
	)
}

export function removeCompany(c: Company) {
	return confirmThenMutate(
		deleteQuestion('Excluir empresa?', `${c.razao} e os seus terminais serão excluídos.\nEsta ação não pode ser desfeita.`),
		'DELETE /api/companies/:id',
		{ params: { id: c.codigo } },
		{ success: { title: 'Empresa excluída', description: c.razao }, errorTitle: 'Erro ao excluir empresa', invalidate: COMPANY_KEYS }
	)
}

export function trustRelease(c: Company) {
	return confirmThenMutate(
		{
			title: 'Liberar em confiança?',
			message: `${c.razao} poderá usar os sistemas por 24 horas, mesmo com a licença vencida.`,
			confirmLabel: 'Liberar por 24h'
		},
		'POST /api/companies/:id/liberar-confianca',
		{ params: { id: c.codigo } },
		{
			success: { title: 'Empresa liberada', description: 'Liberada em confiança por 24 horas.' },
			errorTitle: 'Erro na liberação',
			errorFallback: 'Não foi possível liberar a empresa em confiança.',
			invalidate: COMPANY_KEYS
		}
	)
}

/**
 * A representative's "Renovar créditos" (1-core §5, §8): with no credits it says so and opens nothing; otherwise
 * `open` shows the renewal dialog (quantity, then a confirmation before anything is spent).
 */
export async function startRenewal(open: () => void) {
	try {
		const { total } = await call('GET /api/credits/available')
		if (total > 0) return open()
		toast({
			title: 'Créditos insuficientes',
			description: 'Você não possui créditos disponíveis para renovação. Compre mais créditos para continuar.',
			variant: 'destructive'
		})
	} catch (error) {
		toast({
			title: 'Erro na renovação',
			description: errorText(error, 'Não foi possível renovar os créditos da empresa.'),
			variant: 'destructive'
		})
	}
}

/** What each bulk action asks and is called. */
export const BULK_WORDS: Record<BulkAction, { label: string; title: (n: string) => string; confirm: string; destructive?: boolean }> = {
	bloquear: { label: 'Bloquear', title: (n) => `Bloquear os sistemas de ${n}?`, confirm: 'Bloquear', destructive: true },
	desbloquear: { label: 'Desbloquear', title: (n) => `Desbloquear os sistemas de ${n}?`, confirm: 'Desbloquear' },
	'avisos-on': { label: 'Ativar avisos', title: (n) => `Ativar os avisos de ${n}?`, confirm: 'Ativar avisos' },
	'avisos-off': { label: 'Desativar avisos', title: (n) => `Desativar os avisos de ${n}?`, confirm: 'Desativar avisos' },
	'manutencao-on': {
		label: 'Ativar manutenção',
		title: (n) => `Ativar a manutenção de ${n}?`,
		confirm: 'Ativar manutenção',
		destructive: true
	},
	'manutencao-off': { label: 'Desativar manutenção', title: (n) => `Desativar a manutenção de ${n}?`, confirm: 'Desativar manutenção' }
}

const BULK_EFFECT: Record<BulkAction, string> = {
	bloquear: 'Os cinco sistemas de cada uma deixarão de funcionar.',
	desbloquear: 'Os cinco sistemas de cada uma voltarão a funcionar.',
	'avisos-on': 'Os sistemas delas passarão a exibir o aviso do representante.',
	'avisos-off': 'Os sistemas delas deixarão de exibir avisos.',
	'manutencao-on': 'Os sistemas delas indicarão manutenção.',
	'manutencao-off': 'Os sistemas delas deixarão de indicar manutenção.'
}

/** A bulk action on the selection (or every company of the filter): one confirmation, then a summary of what changed. */
export async function runBulk(action: BulkAction, count: number) {
	const words = BULK_WORDS[action]
	const all = $allMatching.get()
	const n = `${count} ${count === 1 ? 'empresa' : 'empresas'}`
	const ok = await confirmAction({
		title: words.title(n),
		message: `${all ? 'Todas as empresas que correspondem ao filtro atual' : 'As empresas selecionadas'} (${n}). ${BULK_EFFECT[action]}`,
		confirmLabel: words.confirm,
		destructive: words.destructive
	})
	if (!ok) return
	const done = await mutate(
		'POST /api/companies/bulk',
		{ body: all ? { acao: action, filtro: currentFilter() } : { acao: action, ids: [...$selected.get()] } },
		{
			success: { title: 'Ação em lote concluída', description: (r) => r.message },
			errorTitle: 'Erro na ação em lote',
			invalidate: COMPANY_KEYS
		}
	)
	if (done) clearSelection()
}
