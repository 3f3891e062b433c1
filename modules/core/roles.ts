export const ROLES = ['administrador', 'gerente', 'representante'] as const
export type Role = (typeof ROLES)[number]

export const ROLE_LABELS: Record<Role, string> = {
	administrador: 'Administrador',
	gerente: 'Gerente',
	representante: 'Representante'
}
