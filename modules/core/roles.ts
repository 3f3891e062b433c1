import { valuesOf } from './labels'

export const ROLE_LABELS = {
	administrador: 'Administrador',
	gerente: 'Gerente',
	representante: 'Representante'
}
export const ROLES = valuesOf(ROLE_LABELS)
export type Role = (typeof ROLES)[number]
