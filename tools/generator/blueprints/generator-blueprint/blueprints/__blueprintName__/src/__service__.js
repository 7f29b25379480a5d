// {{service}}: a greeting, the smallest thing a service can do.
exports.greet = (name) => `hello ${name}, from {{service}}`;
exports.secured = {{security}};
