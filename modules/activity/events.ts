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

const event = <P>(shape: EventShape<P>) => shape

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`
const brDate = (iso: string) => iso.split('-').reverse().join('/')
const reais = (centavos: number) => `R$ ${(centavos / 100).toFixed(2).replace('.', ',')}`

type Named = { nome: string }
type Company = { razao: string }
type Machine = { machine: string; razao: string }
type Titled = { titulo: string }
type Bulk = { alteradas: number; total: number }
const bulkSubtitle = (p: Bulk) =>
	`${plural(p.alteradas, 'empresa alterada', 'empresas alteradas')} de ${p.total} escolhida${p.total === 1 ? '' : 's'}`

/**
 * Every kind of line the activity log holds, by event name. A service records `logActivity(tx, clock,
 * 'companies.created', { razao }, { actor, entityId })`; the row keeps the event name and the words shown.
 */
export const ACTIVITY_EVENTS = {
	'auth.first-admin': event<{ nome: string }>({
		type: 'info',
		icon: 'Users',
		entity: 'user',
		title: 'Administrador inicial criado',
		subtitle: (p) => p.nome
	}),

	'users.created': event<{ nome: string; papel: string; representativeCreated: boolean }>({
		type: 'success',
		icon: 'Users',
		entity: 'user',
		title: 'Usuário criado',
		subtitle: (p) => `${p.nome} (${p.papel})${p.representativeCreated ? ' — representante cadastrado' : ''}`
	}),
	'users.updated': event<{ nome: string; papel: string; passwordReset: boolean; representativeCreated: boolean }>({
		type: 'info',
		icon: 'Users',
		entity: 'user',
		title: 'Usuário atualizado',
		subtitle: (p) =>
			`${p.nome} (${p.papel})${p.passwordReset ? ' — senha redefinida' : ''}${p.representativeCreated ? ' — representante cadastrado' : ''}`
	}),
	'users.deleted': event<{ nome: string; papel: string }>({
		type: 'warning',
		icon: 'Users',
		entity: 'user',
		title: 'Usuário excluído',
		subtitle: (p) => `${p.nome} (${p.papel})`
	}),
	'users.password-changed': event<Named>({ type: 'info', icon: 'Users', entity: 'user', title: 'Senha alterada', subtitle: (p) => p.nome }),
	'users.profile-updated': event<Named>({
		type: 'info',
		icon: 'Users',
		entity: 'user',
		title: 'Perfil atualizado',
		subtitle: (p) => p.nome
	}),

	'representatives.created': event<Named>({
		type: 'success',
		icon: 'Users',
		entity: 'representative',
		title: 'Representante criado',
		subtitle: (p) => p.nome
	}),
	'representatives.updated': event<Named>({
		type: 'info',
		icon: 'Users',
		entity: 'representative',
		title: 'Representante atualizado',
		subtitle: (p) => p.nome
	}),
	'representatives.api-settings-updated': event<Named>({
		type: 'info',
		icon: 'Users',
		entity: 'representative',
		title: 'Configurações de API atualizadas',
		subtitle: (p) => p.nome
	}),
	'representatives.deleted': event<Named>({
		type: 'warning',
		icon: 'Users',
		entity: 'representative',
		title: 'Representante excluído',
		subtitle: (p) => p.nome
	}),
	'representatives.promo-updated': event<Named>({
		type: 'info',
		icon: 'Building',
		entity: 'representante',
		title: 'Imagem promocional atualizada',
		subtitle: (p) => p.nome
	}),
	'representatives.promo-removed': event<Named>({
		type: 'info',
		icon: 'Building',
		entity: 'representante',
		title: 'Imagem promocional removida',
		subtitle: (p) => p.nome
	}),

	'companies.created': event<Company>({
		type: 'success',
		icon: 'Building',
		entity: 'empresa',
		title: 'Empresa criada',
		subtitle: (p) => p.razao
	}),
	'companies.updated': event<Company>({
		type: 'info',
		icon: 'Building',
		entity: 'empresa',
		title: 'Empresa atualizada',
		subtitle: (p) => p.razao
	}),
	'companies.deleted': event<Company>({
		type: 'warning',
		icon: 'Building',
		entity: 'empresa',
		title: 'Empresa excluída',
		subtitle: (p) => p.razao
	}),
	'companies.dates-updated': event<Company & { licenca: string | null; certificado: string | null }>({
		type: 'info',
		icon: 'Coins',
		entity: 'empresa',
		title: 'Datas de validade atualizadas',
		subtitle: (p) => `${p.razao}: licença ${p.licenca ?? '—'}, certificado ${p.certificado ?? '—'}`
	}),
	'companies.systems-blocked': event<Company>({
		type: 'warning',
		icon: 'AlertTriangle',
		entity: 'empresa',
		title: 'Sistemas bloqueados',
		subtitle: (p) => p.razao
	}),
	'companies.systems-unblocked': event<Company>({
		type: 'info',
		icon: 'AlertTriangle',
		entity: 'empresa',
		title: 'Sistemas desbloqueados',
		subtitle: (p) => p.razao
	}),
	'companies.systems-changed': event<Company & { blocked: boolean }>({
		type: (p) => (p.blocked ? 'warning' : 'info'),
		icon: 'AlertTriangle',
		entity: 'empresa',
		title: 'Sistemas atualizados',
		subtitle: (p) => p.razao
	}),
	'companies.notice-display-on': event<Company>({
		type: 'info',
		icon: 'Building',
		entity: 'empresa',
		title: 'Avisos ativados',
		subtitle: (p) => p.razao
	}),
	'companies.notice-display-off': event<Company>({
		type: 'info',
		icon: 'Building',
		entity: 'empresa',
		title: 'Avisos desativados',
		subtitle: (p) => p.razao
	}),
	'companies.trust-released': event<Company & { horas: number; via?: 'bot' }>({
		type: 'warning',
		icon: 'AlertTriangle',
		entity: 'empresa',
		title: (p) => (p.via === 'bot' ? 'Liberação em confiança pelo bot WhatsApp' : 'Liberação em confiança'),
		subtitle: (p) => `${p.razao} liberada por ${p.horas} horas${p.via === 'bot' ? ' a pedido do cliente no WhatsApp' : ''}`
	}),
	'whatsapp.bot-phone-blocked': event<{ telefone: string; cnpjs: number }>({
		type: 'warning',
		icon: 'AlertTriangle',
		entity: 'whatsapp',
		title: 'Bot WhatsApp parou de responder a um telefone',
		subtitle: (p) => `${p.telefone} enviou ${p.cnpjs} CNPJs diferentes em uma hora: ignorado por 1 hora`
	}),
	'companies.maintenance-on': event<{ alvo: string }>({
		type: 'info',
		icon: 'Terminal',
		entity: 'empresa',
		title: 'Manutenção ativada',
		subtitle: (p) => p.alvo
	}),
	'companies.maintenance-off': event<{ alvo: string }>({
		type: 'info',
		icon: 'Terminal',
		entity: 'empresa',
		title: 'Manutenção desativada',
		subtitle: (p) => p.alvo
	}),
	'companies.key-regenerated': event<Company>({
		type: 'warning',
		icon: 'Terminal',
		entity: 'empresa',
		title: 'Chave de licença regenerada',
		subtitle: (p) => p.razao
	}),
	'companies.notice-sent': event<Titled & { empresas: number }>({
		type: 'info',
		icon: 'AlertTriangle',
		entity: 'empresa',
		title: 'Aviso enviado',
		subtitle: (p) => `${p.titulo} — ${p.empresas} empresa(s)`
	}),
	'companies.notices-removed': event<{ empresas: number }>({
		type: 'info',
		icon: 'AlertTriangle',
		entity: 'empresa',
		title: 'Avisos removidos',
		subtitle: (p) => `${p.empresas} empresa(s)`
	}),

	// One line per bulk action of the companies list, however many companies it changed.
	'companies.bulk-blocked': event<Bulk>({
		type: 'warning',
		icon: 'AlertTriangle',
		entity: 'empresa',
		title: 'Sistemas bloqueados em lote',
		subtitle: bulkSubtitle
	}),
	'companies.bulk-unblocked': event<Bulk>({
		type: 'info',
		icon: 'AlertTriangle',
		entity: 'empresa',
		title: 'Sistemas desbloqueados em lote',
		subtitle: bulkSubtitle
	}),
	'companies.bulk-notices-on': event<Bulk>({
		type: 'info',
		icon: 'Building',
		entity: 'empresa',
		title: 'Avisos ativados em lote',
		subtitle: bulkSubtitle
	}),
	'companies.bulk-notices-off': event<Bulk>({
		type: 'info',
		icon: 'Building',
		entity: 'empresa',
		title: 'Avisos desativados em lote',
		subtitle: bulkSubtitle
	}),
	'companies.bulk-maintenance-on': event<Bulk>({
		type: 'info',
		icon: 'Terminal',
		entity: 'empresa',
		title: 'Manutenção ativada em lote',
		subtitle: bulkSubtitle
	}),
	'companies.bulk-maintenance-off': event<Bulk>({
		type: 'info',
		icon: 'Terminal',
		entity: 'empresa',
		title: 'Manutenção desativada em lote',
		subtitle: bulkSubtitle
	}),

	'terminals.created': event<Machine>({
		type: 'success',
		icon: 'Terminal',
		entity: 'terminal',
		title: 'Terminal criado',
		subtitle: (p) => `${p.machine} — ${p.razao}`
	}),
	'terminals.updated': event<Machine>({
		type: 'info',
		icon: 'Terminal',
		entity: 'terminal',
		title: 'Terminal atualizado',
		subtitle: (p) => `${p.machine} — ${p.razao}`
	}),
	'terminals.deleted': event<Machine>({
		type: 'warning',
		icon: 'Terminal',
		entity: 'terminal',
		title: 'Terminal excluído',
		subtitle: (p) => `${p.machine} — ${p.razao}`
	}),
	'terminals.registered': event<Machine>({
		type: 'info',
		icon: 'Terminal',
		entity: 'terminal',
		title: 'Terminal registrado',
		subtitle: (p) => `${p.machine} — ${p.razao}`
	}),

	'downloads.created': event<Titled>({
		type: 'success',
		icon: 'Terminal',
		entity: 'download',
		title: 'Download criado',
		subtitle: (p) => p.titulo
	}),
	'downloads.updated': event<Titled>({
		type: 'info',
		icon: 'Terminal',
		entity: 'download',
		title: 'Download atualizado',
		subtitle: (p) => p.titulo
	}),
	'downloads.deleted': event<Titled>({
		type: 'warning',
		icon: 'Terminal',
		entity: 'download',
		title: 'Download excluído',
		subtitle: (p) => p.titulo
	}),

	'credits.added': event<{ quantidade: number; representante: string; unitarioCentavos: number }>({
		type: 'success',
		icon: 'Coins',
		entity: 'credito',
		title: (p) => plural(p.quantidade, 'crédito adicionado', 'créditos adicionados'),
		subtitle: (p) => `${p.representante} · ${reais(p.unitarioCentavos)} por crédito`
	}),
	'credits.transferred': event<{ creditos: number; razao: string; sistema: string; dias: number; validade: string }>({
		type: 'success',
		icon: 'Coins',
		entity: 'empresa',
		title: (p) => `${plural(p.creditos, 'crédito transferido', 'créditos transferidos')} para ${p.razao}`,
		subtitle: (p) => `${p.sistema} · +${p.dias} dias · licença até ${brDate(p.validade)}`
	}),

	'credits.purchased': event<{ quantidade: number; representante: string; totalCentavos: number }>({
		type: 'success',
		icon: 'Coins',
		entity: 'compra_creditos',
		title: (p) => `${plural(p.quantidade, 'crédito comprado', 'créditos comprados')} por PIX`,
		subtitle: (p) => `${p.representante} · ${reais(p.totalCentavos)} pagos`
	}),
	'credits.purchase-amount-mismatch': event<{ compra: number; representante: string; pagoCentavos: number; totalCentavos: number }>({
		type: 'warning',
		icon: 'AlertTriangle',
		entity: 'compra_creditos',
		title: (p) => `Compra de créditos nº ${p.compra} paga com valor diferente: nada creditado`,
		subtitle: (p) => `${p.representante} · pagou ${reais(p.pagoCentavos)}, o total era ${reais(p.totalCentavos)}`
	}),
	'credits.purchase-reversed': event<{
		compra: number
		representante: string
		chargeback: boolean
		desativados: number
		jaTransferidos: number
	}>({
		type: 'warning',
		icon: 'AlertTriangle',
		entity: 'compra_creditos',
		title: (p) => `Compra de créditos nº ${p.compra} ${p.chargeback ? 'contestada (chargeback)' : 'estornada'}`,
		subtitle: (p) =>
			`${p.representante} · ${plural(p.desativados, 'crédito desativado', 'créditos desativados')} · ${plural(p.jaTransferidos, 'já transferido', 'já transferidos')}`
	}),

	'notices.general-created': event<Titled>({
		type: 'info',
		icon: 'AlertTriangle',
		entity: 'aviso_geral',
		title: 'Aviso geral criado',
		subtitle: (p) => p.titulo
	}),
	'notices.general-updated': event<Titled>({
		type: 'info',
		icon: 'AlertTriangle',
		entity: 'aviso_geral',
		title: 'Aviso geral atualizado',
		subtitle: (p) => p.titulo
	}),
	'notices.general-deleted': event<Titled>({
		type: 'warning',
		icon: 'AlertTriangle',
		entity: 'aviso_geral',
		title: 'Aviso geral excluído',
		subtitle: (p) => p.titulo
	}),
	'notices.individual-created': event<Titled & { representante: string }>({
		type: 'info',
		icon: 'AlertTriangle',
		entity: 'aviso_individual',
		title: 'Aviso individual criado',
		subtitle: (p) => `${p.titulo} · ${p.representante}`
	}),
	'notices.individual-updated': event<Titled & { representante: string }>({
		type: 'info',
		icon: 'AlertTriangle',
		entity: 'aviso_individual',
		title: 'Aviso individual atualizado',
		subtitle: (p) => `${p.titulo} · ${p.representante}`
	}),
	'notices.individual-deleted': event<Titled>({
		type: 'warning',
		icon: 'AlertTriangle',
		entity: 'aviso_individual',
		title: 'Aviso individual excluído',
		subtitle: (p) => p.titulo
	}),

	'billing.asaas-account-saved': event<{ conta: string; ambiente: string; ativa: boolean }>({
		type: 'info',
		icon: 'Coins',
		entity: 'asaas',
		title: 'Conta Asaas atualizada',
		subtitle: (p) => `${p.conta} · ${p.ambiente === 'production' ? 'produção' : 'sandbox'} · ${p.ativa ? 'ativa' : 'inativa'}`
	}),
	'billing.webhook-reactivated': event<{ conta: string }>({
		type: 'info',
		icon: 'Coins',
		entity: 'asaas',
		title: 'Fila de webhooks do Asaas reativada',
		subtitle: (p) => p.conta
	}),
	'billing.carne-created': event<{ razao: string; parcelas: number; totalCentavos: number; tipo: string }>({
		type: 'success',
		icon: 'Coins',
		entity: 'carne',
		title: 'Carnê emitido',
		subtitle: (p) => `${p.razao} · ${p.parcelas}x · ${reais(p.totalCentavos)} · ${p.tipo}`
	}),
	'billing.carne-cancelled': event<{ razao: string; removidas: number; carne: number }>({
		type: 'warning',
		icon: 'Coins',
		entity: 'carne',
		title: 'Carnê cancelado',
		subtitle: (p) => `#${p.carne} · ${p.razao} · ${plural(p.removidas, 'parcela removida', 'parcelas removidas')} no Asaas`
	}),
	'billing.carne-closed-at-asaas': event<{ razao: string; carne: number; status: 'cancelado' | 'quitado'; canceladas: number }>({
		type: 'warning',
		icon: 'Coins',
		entity: 'carne',
		title: (p) => (p.status === 'quitado' ? 'Carnê quitado (plano excluído no Asaas)' : 'Carnê cancelado no Asaas'),
		subtitle: (p) => `#${p.carne} · ${p.razao} · ${plural(p.canceladas, 'parcela cancelada', 'parcelas canceladas')}`
	}),
	'billing.carne-sent': event<{ razao: string; telefone: string; carne: number }>({
		type: 'info',
		icon: 'Coins',
		entity: 'carne',
		title: 'Carnê enviado por WhatsApp',
		subtitle: (p) => `#${p.carne} · ${p.razao} · para ${p.telefone}`
	}),
	'billing.parcel-removed': event<{ parcela: number; carne: number; valorCentavos: number }>({
		type: 'warning',
		icon: 'Coins',
		entity: 'parcela',
		title: 'Parcela removida',
		subtitle: (p) => `Parcela ${p.parcela} do carnê #${p.carne} · ${reais(p.valorCentavos)}`
	}),
	'billing.parcel-sent': event<{ parcela: number; carne: number; telefone: string }>({
		type: 'info',
		icon: 'Coins',
		entity: 'parcela',
		title: 'Parcela enviada por WhatsApp',
		subtitle: (p) => `Parcela ${p.parcela} do carnê #${p.carne} · para ${p.telefone}`
	}),

	'notifications.setting-saved': event<{ tipo: string; ativo: boolean }>({
		type: 'info',
		icon: 'Terminal',
		entity: 'notificacao',
		title: 'Notificação automática atualizada',
		subtitle: (p) => `${p.tipo} · ${p.ativo ? 'ativa' : 'desativada'}`
	}),

	// System events are routine, not warnings: they carry the system icon (Terminal).
	'settings.updated': event<{ chave: string }>({
		type: 'info',
		icon: 'Terminal',
		entity: 'configuracao',
		title: 'Configuração atualizada',
		subtitle: (p) => p.chave
	}),
	'settings.bulk-updated': event<{ quantidade: number }>({
		type: 'info',
		icon: 'Terminal',
		entity: 'configuracao',
		title: 'Configurações do sistema atualizadas',
		subtitle: (p) => plural(p.quantidade, 'configuração', 'configurações')
	}),
	'settings.auto-logout-updated': event<{ minutos: number | null }>({
		type: 'info',
		icon: 'Terminal',
		entity: 'configuracao',
		title: 'Logout automático atualizado',
		subtitle: (p) => (p.minutos === null ? 'Desativado' : `${p.minutos} minutos de inatividade`)
	}),
	'system.backup-created': event<{ arquivo: string }>({
		type: 'success',
		icon: 'Terminal',
		entity: 'backup',
		title: 'Backup criado',
		subtitle: (p) => p.arquivo
	}),
	'system.backup-automatic': event<{ arquivo: string }>({
		type: 'success',
		icon: 'Terminal',
		entity: 'backup',
		title: 'Backup automático criado',
		subtitle: (p) => p.arquivo
	}),
	'system.backup-deleted': event<{ arquivo: string }>({
		type: 'warning',
		icon: 'Terminal',
		entity: 'backup',
		title: 'Backup deletado',
		subtitle: (p) => p.arquivo
	}),
	'system.cache-cleared': event<{ sessoes: number }>({
		type: 'info',
		icon: 'Terminal',
		entity: 'sistema',
		title: 'Cache limpo',
		subtitle: (p) => plural(p.sessoes, 'sessão expirada removida', 'sessões expiradas removidas')
	})
}

export type ActivityEvent = keyof typeof ACTIVITY_EVENTS
export type ActivityParams<E extends ActivityEvent> = (typeof ACTIVITY_EVENTS)[E] extends EventShape<infer P> ? P : never
