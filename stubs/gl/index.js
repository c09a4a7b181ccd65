// Stub for headless-gl: returning null makes gpu.js report that no headless GL context exists.
module.exports = function createContext() { return null; };
