export {
	getSetting,
	getSettingsMap,
	saveSettings,
	getAutoLogoutConfig,
	isSettingKey,
	listSettings,
	maskSecret,
	getThemeSettings,
	isMaskedSecret,
	lastSettingsUpdate
} from './service'
export * from './model'
export { settings } from './schema'
