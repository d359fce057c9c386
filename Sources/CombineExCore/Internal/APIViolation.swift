/// Reports a misuse of the API: the single place where the core stops the program, so that every
/// violation reads the same ("CombineEx API violation: <what>. <why it matters>").
///
/// Misuse stops the program in debug and release builds alike, like Combine's own checks, rather
/// than continuing with corrupted state.
@usableFromInline
package func apiViolation(
  _ message: @autoclosure () -> String, file: StaticString = #file, line: UInt = #line
) -> Never {
  fatalError("CombineEx API violation: \(message())", file: file, line: line)
}

/// Checks a precondition of the public API, reporting it with ``apiViolation(_:file:line:)``.
@inlinable
func checkAPI(
  _ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String,
  file: StaticString = #file, line: UInt = #line
) {
  if !condition() { apiViolation(message(), file: file, line: line) }
}
