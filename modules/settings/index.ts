export {
	getSetting,
	openSetting,
	sealPlaintextSettings,
	getSettingsMap,
	saveSettings,
	getAutoLogoutConfig,
	isSettingKey,
	listSettings,
	getThemeSettings,
	getDisplayFormats,
	isMaskedSecret,
	lastSettingsUpdate
} from './service'
export * from './model'
export { settings } from './schema'
