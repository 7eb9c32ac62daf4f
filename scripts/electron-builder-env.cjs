// Parent config of electron-builder.yml: the one setting that must come from the environment.
// ELECTRON_OVERRIDE_DIST_PATH (an unpacked Electron build, or a folder with its zip) packages
// without downloading Electron; unset, electron-builder downloads it as usual.
const dist = process.env.ELECTRON_OVERRIDE_DIST_PATH;
module.exports = dist ? { electronDist: dist } : {};
