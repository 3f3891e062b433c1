/** The status and notice filters of 1-core §2.8, in the screen's words (the API also takes expiring_soon and no-license). */
export const STATUS_OPTIONS = [
	['todas', 'Todas'],
	['ativas', 'Ativas'],
	['bloqueadas', 'Bloqueadas'],
	['expiradas', 'Expiradas']
] as const
export const NOTICE_OPTIONS = [
	['todas', 'Todas'],
	['com', 'Com Avisos Ativados'],
	['sem', 'Sem Avisos']
] as const
