import { MessageResponse, contract, z, withMessage } from '../core'
import { AutoLogoutConfig, BulkSettingsBody, SettingEntry } from '../settings/model'

/** A setting as the screens read it: secrets masked (administrador) or left out (everyone else). */
export const SettingView = z.object({
	chave: z.string(),
	valor: z.string(),
	descricao: z.string(),
	categoria: z.string(),
	tipo: z.string(),
	secreto: z.boolean(),
	padrao: z.string()
})
export type SettingView = z.infer<typeof SettingView>

export const BackupInfo = z.object({
	filename: z.string(),
	size: z.number(),
	sizeFormatted: z.string(),
	/** ISO instant the backup was taken. */
	created: z.string(),
	type: z.enum(['automático', 'manual'])
})
export type BackupInfo = z.infer<typeof BackupInfo>

export const BackupStats = z.object({
	totalBackups: z.number(),
	totalSize: z.number(),
	totalSizeFormatted: z.string(),
	lastBackup: z.string().nullable(),
	/** Whether a backup can be made now; on PostgreSQL it needs pg_dump/pg_restore (`motivo` says what is missing). */
	disponivel: z.boolean(),
	motivo: z.string().nullable()
})
export type BackupStats = z.infer<typeof BackupStats>

export const SystemInfo = z.object({
	version: z.string(),
	database: z.string(),
	databaseKind: z.string(),
	lastUpdate: z.string().nullable(),
	status: z.literal('Online')
})
export type SystemInfo = z.infer<typeof SystemInfo>

const FilenameParams = z.object({ filename: z.string().max(200) })

export const healthRoute = contract({
	method: 'GET',
	path: '/api/health',
	response: z.object({ status: z.literal('ok'), time: z.string() }),
	summary: 'O portal e o banco respondem (503 quando o banco não responde)'
})
export const readyRoute = contract({
	method: 'GET',
	path: '/api/ready',
	response: z.object({ status: z.literal('pronto'), migracao: z.number() }),
	summary:
		'Prontidão desta instância para receber tráfego: o banco responde e está no nível de migração deste código (503 com o motivo quando não; também enquanto a instância se encerra)'
})
export const metricsRoute = contract({
	method: 'GET',
	path: '/metrics',
	response: z.instanceof(Blob).describe('texto no formato do Prometheus (text/plain; version=0.0.4)'),
	summary:
		'Métricas desta instância no formato de texto do Prometheus: requisições e latências por rota, verificações de licença, execuções de trabalhos, fila de webhooks. Para um administrador com sessão, ou com Authorization: Bearer METRICS_TOKEN'
})
export const listSettingsRoute = contract({
	method: 'GET',
	path: '/api/configuracoes',
	response: z.array(SettingView),
	summary: 'As configurações do portal (segredos mascarados, e só para administradores)'
})
export const saveSettingsRoute = contract({
	method: 'POST',
	path: '/api/configuracoes/bulk',
	body: BulkSettingsBody,
	response: withMessage({ saved: z.array(z.string()), configuracoes: z.array(SettingView) }),
	summary: 'Salva várias configurações de uma vez; um valor mascarado devolvido sem mudança mantém o segredo'
})
export const saveSettingRoute = contract({
	method: 'POST',
	path: '/api/configuracoes',
	body: SettingEntry,
	response: withMessage({ configuracao: SettingView.optional() }),
	summary: 'Salva uma configuração'
})
export const autoLogoutConfigRoute = contract({
	method: 'GET',
	path: '/api/public/auto-logout-config',
	response: AutoLogoutConfig,
	summary: 'O tempo de inatividade que encerra a sessão'
})
export const saveAutoLogoutRoute = contract({
	method: 'POST',
	path: '/api/configuracoes/auto-logout',
	body: AutoLogoutConfig,
	response: AutoLogoutConfig.extend({ message: z.string() }),
	summary: 'Define o logout automático por inatividade'
})
export const systemInfoRoute = contract({
	method: 'GET',
	path: '/api/system/info',
	response: SystemInfo,
	summary: 'Versão, banco e última atualização'
})
export const backupStatsRoute = contract({
	method: 'GET',
	path: '/api/system/backup/stats',
	response: BackupStats,
	summary: 'Números dos backups'
})
export const listBackupsRoute = contract({
	method: 'GET',
	path: '/api/system/backup/list',
	response: z.object({ backups: z.array(BackupInfo) }),
	summary: 'Os backups, do mais novo ao mais antigo'
})
export const createBackupRoute = contract({
	method: 'POST',
	path: '/api/system/backup/manual',
	response: withMessage({ filename: z.string(), backup: BackupInfo }),
	summary: 'Cria um backup manual (banco e arquivos enviados)'
})
export const deleteBackupRoute = contract({
	method: 'DELETE',
	path: '/api/system/backup/:filename',
	params: FilenameParams,
	response: MessageResponse,
	summary: 'Exclui um backup',
	done: 'Backup deletado.'
})
export const downloadBackupRoute = contract({
	method: 'GET',
	path: '/api/system/backup/download/:filename',
	params: FilenameParams,
	response: z.instanceof(Blob).describe('o arquivo .tar.gz'),
	summary: 'Baixa um backup'
})
export const clearCacheRoute = contract({
	method: 'POST',
	path: '/api/system/clear-cache',
	response: withMessage({ removedSessions: z.number() }),
	summary: 'Remove sessões expiradas e otimiza as estatísticas do banco'
})
