export { credits } from './schema'
