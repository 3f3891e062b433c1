import { routeStore } from './query'

/** GET /api/configuracoes, shared by every island that reads a setting. */
export const $configuracoes = routeStore('GET /api/configuracoes')
