export { managedRepresentativeCnpjs, findRepresentativeByCnpj } from './service'
export { representatives } from './schema'
