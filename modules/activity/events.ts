import { carneName, formatBrDate, formatBrl } from '../core'
import type { activities } from './schema'

export type ActivityType = (typeof activities.$inferInsert)['type']
export type ActivityIcon = (typeof activities.$inferInsert)['icon']

/** How one kind of activity line is shown: its type and icon (1-core §3 'Activity'), title and subtitle. */
interface EventShape<P> {
	type: ActivityType | ((p: P) => ActivityType)
	icon: ActivityIcon
	/** The kind of record it is about (stored with the line, with the record's id). */
	entity: string
	title: string | ((p: P) => string)
	subtitle: (p: P) => string
}

/** One row of the catalogue, its columns in the order of {@link EventShape}: type, icon, entity, title, subtitle. */
const event = <P>(
	type: EventShape<P>['type'],
	icon: ActivityIcon,
	entity: string,
	title: EventShape<P>['title'],
	subtitle: EventShape<P>['subtitle']
): EventShape<P> => ({ type, icon, entity, title, subtitle })

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`

type Named = { nome: string }
type Company = { razao: string }
type Machine = { machine: string; razao: string }
type Titled = { titulo: string }
type RepNotice = Titled & { representante: string }
type Bulk = { alteradas: number; total: number }
const nome = (p: Named) => p.nome
const razao = (p: Company) => p.razao
const titulo = (p: Titled) => p.titulo
const arquivo = (p: { arquivo: string }) => p.arquivo
const noticeToRep = (p: RepNotice) => `${p.titulo} · ${p.representante}`
const machineOfCompany = (p: Machine) => `${p.machine} — ${p.razao}`
const bulkSubtitle = (p: Bulk) =>
	`${plural(p.alteradas, 'empresa alterada', 'empresas alteradas')} de ${p.total} escolhida${p.total === 1 ? '' : 's'}`

/**
 * Every kind of line the activity log holds, by event name. A service records `logActivity(tx, clock,
 * 'companies.created', { razao }, { actor, entityId })`; the row keeps the event name and the words shown.
 */
export const ACTIVITY_EVENTS = {
	'auth.first-admin': event<{ nome: string }>('info', 'Users', 'user', 'Administrador inicial criado', nome),

	'users.created': event<{ nome: string; papel: string; representativeCreated: boolean }>(
		'success',
		'Users',
		'user',
		'Usuário criado',
		(p) => `${p.nome} (${p.papel})${p.representativeCreated ? ' — representante cadastrado' : ''}`
	),
	'users.updated': event<{ nome: string; papel: string; passwordReset: boolean; representativeCreated: boolean }>(
		'info',
		'Users',
		'user',
		'Usuário atualizado',
		(p) =>
			`${p.nome} (${p.papel})${p.passwordReset ? ' — senha redefinida' : ''}${p.representativeCreated ? ' — representante cadastrado' : ''}`
	),
	'users.deleted': event<{ nome: string; papel: string }>('warning', 'Users', 'user', 'Usuário excluído', (p) => `${p.nome} (${p.papel})`),
	'users.password-changed': event<Named>('info', 'Users', 'user', 'Senha alterada', nome),
	'users.profile-updated': event<Named>('info', 'Users', 'user', 'Perfil atualizado', nome),

	'representatives.created': event<Named>('success', 'Users', 'representative', 'Representante criado', nome),
	'representatives.updated': event<Named>('info', 'Users', 'representative', 'Representante atualizado', nome),
	'representatives.api-settings-updated': event<Named>('info', 'Users', 'representative', 'Configurações de API atualizadas', nome),
	'representatives.deleted': event<Named>('warning', 'Users', 'representative', 'Representante excluído', nome),
	'representatives.promo-updated': event<Named>('info', 'Building', 'representante', 'Imagem promocional atualizada', nome),
	'representatives.promo-removed': event<Named>('info', 'Building', 'representante', 'Imagem promocional removida', nome),

	'companies.created': event<Company>('success', 'Building', 'empresa', 'Empresa criada', razao),
	'companies.updated': event<Company>('info', 'Building', 'empresa', 'Empresa atualizada', razao),
	'companies.deleted': event<Company>('warning', 'Building', 'empresa', 'Empresa excluída', razao),
	'companies.dates-updated': event<Company & { licenca: string | null; certificado: string | null }>(
		'info',
		'Coins',
		'empresa',
		'Datas de validade atualizadas',
		(p) => `${p.razao}: licença ${p.licenca ?? '—'}, certificado ${p.certificado ?? '—'}`
	),
	'companies.systems-blocked': event<Company>('warning', 'AlertTriangle', 'empresa', 'Sistemas bloqueados', razao),
	'companies.systems-unblocked': event<Company>('info', 'AlertTriangle', 'empresa', 'Sistemas desbloqueados', razao),
	'companies.systems-changed': event<Company & { blocked: boolean }>(
		(p) => (p.blocked ? 'warning' : 'info'),
		'AlertTriangle',
		'empresa',
		'Sistemas atualizados',
		razao
	),
	'companies.notice-display-on': event<Company>('info', 'Building', 'empresa', 'Avisos ativados', razao),
	'companies.notice-display-off': event<Company>('info', 'Building', 'empresa', 'Avisos desativados', razao),
	'companies.trust-released': event<Company & { horas: number; via?: 'bot' }>(
		'warning',
		'AlertTriangle',
		'empresa',
		(p) => (p.via === 'bot' ? 'Liberação em confiança pelo bot WhatsApp' : 'Liberação em confiança'),
		(p) => `${p.razao} liberada por ${p.horas} horas${p.via === 'bot' ? ' a pedido do cliente no WhatsApp' : ''}`
	),
	'whatsapp.bot-phone-blocked': event<{ telefone: string; cnpjs: number }>(
		'warning',
		'AlertTriangle',
		'whatsapp',
		'Bot WhatsApp parou de responder a um telefone',
		(p) => `${p.telefone} enviou ${p.cnpjs} CNPJs diferentes em uma hora: ignorado por 1 hora`
	),
	'whatsapp.attendant-requested': event<{ telefone: string; empresa: string }>(
		'warning',
		'Users',
		'whatsapp',
		'Cliente pediu um atendente no WhatsApp',
		(p) => `${p.telefone} — ${p.empresa}`
	),
	'companies.maintenance-on': event<{ alvo: string }>('info', 'Terminal', 'empresa', 'Manutenção ativada', (p) => p.alvo),
	'companies.maintenance-off': event<{ alvo: string }>('info', 'Terminal', 'empresa', 'Manutenção desativada', (p) => p.alvo),
	'companies.key-regenerated': event<Company>('warning', 'Terminal', 'empresa', 'Chave de licença regenerada', razao),
	'companies.notice-sent': event<Titled & { empresas: number }>(
		'info',
		'AlertTriangle',
		'empresa',
		'Aviso enviado',
		(p) => `${p.titulo} — ${p.empresas} empresa(s)`
	),
	'companies.notices-removed': event<{ empresas: number }>(
		'info',
		'AlertTriangle',
		'empresa',
		'Avisos removidos',
		(p) => `${p.empresas} empresa(s)`
	),

	// One line per bulk action of the companies list, however many companies it changed.
	'companies.bulk-blocked': event<Bulk>('warning', 'AlertTriangle', 'empresa', 'Sistemas bloqueados em lote', bulkSubtitle),
	'companies.bulk-unblocked': event<Bulk>('info', 'AlertTriangle', 'empresa', 'Sistemas desbloqueados em lote', bulkSubtitle),
	'companies.bulk-notices-on': event<Bulk>('info', 'Building', 'empresa', 'Avisos ativados em lote', bulkSubtitle),
	'companies.bulk-notices-off': event<Bulk>('info', 'Building', 'empresa', 'Avisos desativados em lote', bulkSubtitle),
	'companies.bulk-maintenance-on': event<Bulk>('info', 'Terminal', 'empresa', 'Manutenção ativada em lote', bulkSubtitle),
	'companies.bulk-maintenance-off': event<Bulk>('info', 'Terminal', 'empresa', 'Manutenção desativada em lote', bulkSubtitle),
	// The reminder schedule's block for non-payment (issue 37), and its end.
	'companies.blocked-for-non-payment': event<Company & { motivo: string }>(
		'warning',
		'AlertTriangle',
		'empresa',
		'Sistemas bloqueados por falta de pagamento',
		(p) => `${p.razao} · ${p.motivo}`
	),
	'companies.unblocked-after-payment': event<Company & { motivo: string }>(
		'success',
		'AlertTriangle',
		'empresa',
		'Sistemas desbloqueados: pagamento em dia',
		(p) => `${p.razao} · ${p.motivo}`
	),

	'terminals.created': event<Machine>('success', 'Terminal', 'terminal', 'Terminal criado', machineOfCompany),
	'terminals.updated': event<Machine>('info', 'Terminal', 'terminal', 'Terminal atualizado', machineOfCompany),
	'terminals.deleted': event<Machine>('warning', 'Terminal', 'terminal', 'Terminal excluído', machineOfCompany),
	'terminals.registered': event<Machine>('info', 'Terminal', 'terminal', 'Terminal registrado', machineOfCompany),

	'downloads.created': event<Titled>('success', 'Terminal', 'download', 'Download criado', titulo),
	'downloads.updated': event<Titled>('info', 'Terminal', 'download', 'Download atualizado', titulo),
	'downloads.deleted': event<Titled>('warning', 'Terminal', 'download', 'Download excluído', titulo),

	'credits.added': event<{ quantidade: number; representante: string; unitarioCentavos: number }>(
		'success',
		'Coins',
		'credito',
		(p) => plural(p.quantidade, 'crédito adicionado', 'créditos adicionados'),
		(p) => `${p.representante} · ${formatBrl(p.unitarioCentavos)} por crédito`
	),
	'credits.transferred': event<{ creditos: number; razao: string; sistema: string; dias: number; validade: string }>(
		'success',
		'Coins',
		'empresa',
		(p) => `${plural(p.creditos, 'crédito transferido', 'créditos transferidos')} para ${p.razao}`,
		(p) => `${p.sistema} · +${p.dias} dias · licença até ${formatBrDate(p.validade)}`
	),

	'credits.purchased': event<{ quantidade: number; representante: string; totalCentavos: number }>(
		'success',
		'Coins',
		'compra_creditos',
		(p) => `${plural(p.quantidade, 'crédito comprado', 'créditos comprados')} por PIX`,
		(p) => `${p.representante} · ${formatBrl(p.totalCentavos)} pagos`
	),
	'credits.purchase-amount-mismatch': event<{ compra: number; representante: string; pagoCentavos: number; totalCentavos: number }>(
		'warning',
		'AlertTriangle',
		'compra_creditos',
		(p) => `Compra de créditos nº ${p.compra} paga com valor diferente: nada creditado`,
		(p) => `${p.representante} · pagou ${formatBrl(p.pagoCentavos)}, o total era ${formatBrl(p.totalCentavos)}`
	),
	'credits.purchase-reversed': event<{
		compra: number
		representante: string
		chargeback: boolean
		desativados: number
		jaTransferidos: number
	}>(
		'warning',
		'AlertTriangle',
		'compra_creditos',
		(p) => `Compra de créditos nº ${p.compra} ${p.chargeback ? 'contestada (chargeback)' : 'estornada'}`,
		(p) =>
			`${p.representante} · ${plural(p.desativados, 'crédito desativado', 'créditos desativados')} · ${plural(p.jaTransferidos, 'já transferido', 'já transferidos')}`
	),

	// A carnê renewing its company's licence (issue 37): the option, each renewal made, each one waiting for credits.
	'billing.carne-renewal-changed': event<{ razao: string; carne: number; renovar: boolean; creditos: number }>(
		'info',
		'Coins',
		'carne',
		(p) => `Renovação automática ${p.renovar ? 'ativada' : 'desativada'} no ${carneName(p.carne)}`,
		(p) => (p.renovar ? `${p.razao} · ${plural(p.creditos, 'crédito', 'créditos')} por parcela paga` : p.razao)
	),
	'billing.licence-renewed': event<{
		razao: string
		parcela: number
		totalParcelas: number
		carne: number
		creditos: number
		dias: number
		validade: string
	}>(
		'success',
		'Coins',
		'empresa',
		(p) => `Licença de ${p.razao} renovada até ${formatBrDate(p.validade)}`,
		(p) =>
			`Parcela ${p.parcela}/${p.totalParcelas} do ${carneName(p.carne)} paga · ${plural(p.creditos, 'crédito', 'créditos')} · +${p.dias} dias`
	),
	'billing.renewal-waiting': event<{ razao: string; parcela: number; totalParcelas: number; carne: number; creditos: number }>(
		'warning',
		'AlertTriangle',
		'empresa',
		(p) => `Renovação de ${p.razao} aguardando créditos`,
		(p) =>
			`Parcela ${p.parcela}/${p.totalParcelas} do ${carneName(p.carne)} paga · faltam créditos (${plural(p.creditos, 'crédito necessário', 'créditos necessários')})`
	),

	'notices.general-created': event<Titled>('info', 'AlertTriangle', 'aviso_geral', 'Aviso geral criado', titulo),
	'notices.general-updated': event<Titled>('info', 'AlertTriangle', 'aviso_geral', 'Aviso geral atualizado', titulo),
	'notices.general-deleted': event<Titled>('warning', 'AlertTriangle', 'aviso_geral', 'Aviso geral excluído', titulo),
	'notices.individual-created': event<RepNotice>('info', 'AlertTriangle', 'aviso_individual', 'Aviso individual criado', noticeToRep),
	'notices.individual-updated': event<RepNotice>('info', 'AlertTriangle', 'aviso_individual', 'Aviso individual atualizado', noticeToRep),
	'notices.individual-deleted': event<Titled>('warning', 'AlertTriangle', 'aviso_individual', 'Aviso individual excluído', titulo),

	'billing.asaas-account-saved': event<{ conta: string; ambiente: string; ativa: boolean }>(
		'info',
		'Coins',
		'asaas',
		'Conta Asaas atualizada',
		(p) => `${p.conta} · ${p.ambiente === 'production' ? 'produção' : 'sandbox'} · ${p.ativa ? 'ativa' : 'inativa'}`
	),
	'billing.webhook-reactivated': event<{ conta: string }>('info', 'Coins', 'asaas', 'Fila de webhooks do Asaas reativada', (p) => p.conta),
	'billing.asaas-account-mismatch': event<{ conta: string; situacao: 'mudou' | 'desconhecida' }>(
		'warning',
		'AlertTriangle',
		'asaas',
		'Chave do Asaas abre outra conta',
		(p) =>
			`${p.conta} · ${p.situacao === 'mudou' ? 'a chave abre outra conta do Asaas' : 'a conta não conhece os carnês emitidos'} · nada foi cancelado`
	),
	'billing.carne-unfinished': event<{ razao: string; carne: number; resultado: 'concluido' | 'descartado' }>(
		(p) => (p.resultado === 'concluido' ? 'success' : 'info'),
		'Coins',
		'carne',
		(p) => (p.resultado === 'concluido' ? 'Carnê concluído após falha na criação' : 'Carnê não criado no Asaas descartado'),
		(p) => `${carneName(p.carne)} · ${p.razao}`
	),
	'billing.carne-created': event<{ razao: string; parcelas: number; totalCentavos: number; tipo: string }>(
		'success',
		'Coins',
		'carne',
		'Carnê emitido',
		(p) => `${p.razao} · ${p.parcelas}x · ${formatBrl(p.totalCentavos)} · ${p.tipo}`
	),
	'billing.carne-cancelled': event<{ razao: string; removidas: number; carne: number }>(
		'warning',
		'Coins',
		'carne',
		'Carnê cancelado',
		(p) => `${carneName(p.carne)} · ${p.razao} · ${plural(p.removidas, 'parcela removida', 'parcelas removidas')} no Asaas`
	),
	'billing.carne-closed-at-asaas': event<{ razao: string; carne: number; canceladas: number }>(
		'warning',
		'Coins',
		'carne',
		'Carnê cancelado no Asaas',
		(p) => `${carneName(p.carne)} · ${p.razao} · ${plural(p.canceladas, 'parcela cancelada', 'parcelas canceladas')}`
	),
	'billing.carne-sent': event<{ razao: string; telefone: string; carne: number }>(
		'info',
		'Coins',
		'carne',
		'Carnê enviado por WhatsApp',
		(p) => `${carneName(p.carne)} · ${p.razao} · para ${p.telefone}`
	),
	'billing.parcel-removed': event<{ parcela: number; carne: number; valorCentavos: number }>(
		'warning',
		'Coins',
		'parcela',
		'Parcela removida',
		(p) => `Parcela ${p.parcela} do ${carneName(p.carne)} · ${formatBrl(p.valorCentavos)}`
	),
	'billing.parcel-sent': event<{ parcela: number; carne: number; telefone: string }>(
		'info',
		'Coins',
		'parcela',
		'Parcela enviada por WhatsApp',
		(p) => `Parcela ${p.parcela} do ${carneName(p.carne)} · para ${p.telefone}`
	),
	'billing.dunning-saved': event<{ representante: string; ativa: boolean; bloqueio: number | null }>(
		'info',
		'Coins',
		'regua',
		'Régua de cobrança atualizada',
		(p) =>
			`${p.representante} · ${p.ativa ? 'ativa' : 'desligada'} · ${p.bloqueio ? `bloqueio após ${p.bloqueio} dias de atraso` : 'sem bloqueio'}`
	),

	'notifications.setting-saved': event<{ tipo: string; ativo: boolean }>(
		'info',
		'Terminal',
		'notificacao',
		'Notificação automática atualizada',
		(p) => `${p.tipo} · ${p.ativo ? 'ativa' : 'desativada'}`
	),

	// System events are routine, not warnings: they carry the system icon (Terminal).
	'settings.updated': event<{ chave: string }>('info', 'Terminal', 'configuracao', 'Configuração atualizada', (p) => p.chave),
	'settings.bulk-updated': event<{ quantidade: number }>('info', 'Terminal', 'configuracao', 'Configurações do sistema atualizadas', (p) =>
		plural(p.quantidade, 'configuração', 'configurações')
	),
	'settings.auto-logout-updated': event<{ minutos: number | null }>(
		'info',
		'Terminal',
		'configuracao',
		'Logout automático atualizado',
		(p) => (p.minutos === null ? 'Desativado' : `${p.minutos} minutos de inatividade`)
	),
	'system.backup-created': event<{ arquivo: string }>('success', 'Terminal', 'backup', 'Backup criado', arquivo),
	'system.backup-automatic': event<{ arquivo: string }>('success', 'Terminal', 'backup', 'Backup automático criado', arquivo),
	'system.backup-deleted': event<{ arquivo: string }>('warning', 'Terminal', 'backup', 'Backup deletado', arquivo),
	'system.cache-cleared': event<{ sessoes: number }>('info', 'Terminal', 'sistema', 'Cache limpo', (p) =>
		plural(p.sessoes, 'sessão expirada removida', 'sessões expiradas removidas')
	)
}

export type ActivityEvent = keyof typeof ACTIVITY_EVENTS
export type ActivityParams<E extends ActivityEvent> = (typeof ACTIVITY_EVENTS)[E] extends EventShape<infer P> ? P : never
