// Jest global tear-down: removes the run's transpiled copy of src/ (see prebuild.js).
module.exports = require('./prebuild').removePrebuilt;
