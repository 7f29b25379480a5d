/**
 * Codes of the mapper engine's own errors (`subErrorCode` of `XmlSyntaxError`, `MapperRenderError`…).
 * They are `FwError`s that are not exposed: the loader turns them into `MapperLoadError`s (load
 * time) and the search runner into `Q721` (a rendering failure at query time), so no client ever
 * reads these codes; logs and tests do. Named, not numbered, so they are never taken for a `Q7xx`.
 */
export const MapperErrorCodes = {
  /** A mapper file that is not well-formed XML. */
  xmlSyntax: 'QM_XML_SYNTAX',
  /** A statement whose dynamic SQL cannot be rendered for the given parameters. */
  render: 'QM_RENDER',
  /** SQL text of a statement that cannot be split (unterminated literal, bad parameter). */
  sqlText: 'QM_SQL_TEXT',
  /** An OGNL-like test or bind expression that does not parse. */
  expressionSyntax: 'QM_EXPRESSION_SYNTAX',
  /** A command-line argument of the mapper check that names no mapper file. */
  files: 'QM_FILES',
} as const;
