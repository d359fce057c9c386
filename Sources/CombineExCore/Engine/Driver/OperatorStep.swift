/// What a single-upstream operator does with one upstream value: its ``OperatorLogic`` returns
/// one, and the ``OperatorDriver`` performs it.
@usableFromInline
package enum OperatorStep<Output, Failure: Error> {
  /// Send this value downstream; the demand the downstream returns goes back upstream.
  case emit(Output)
  /// Send nothing, and give the value's unit of demand back to the upstream (`.max(1)`), so
  /// that the downstream still receives as many values as it asked for (`tryFilter`).
  case skip
  /// Send nothing, and ask the upstream for nothing more: the operator asked for this value
  /// itself (`dropFirst`), or keeps it for later (`collect(_:)`'s batch, a reducing operator's
  /// accumulator).
  case consume
  /// Stop: the upstream is cancelled, then the operator ends as described.
  case end(OperatorEnding<Output, Failure>)

  /// Stops with `.finished` (`prefix(while:)`).
  @inlinable
  package static var finish: Self { .end(.completion(.finished)) }

  /// Stops with `failure` (a `try` variant's thrown error).
  @inlinable
  package static func fail(_ failure: Failure) -> Self { .end(.completion(.failure(failure))) }

  /// Sends `output`, then stops with `.finished` (`prefix(_:)`'s last value).
  @inlinable
  package static func emitAndFinish(_ output: Output) -> Self { .end(.last(output)) }

  /// Stops, publishing `result` (if any) once the downstream has asked for it, then
  /// `.finished` (`contains`, `first(where:)`).
  @inlinable
  package static func finish(publishing result: Output?) -> Self { .end(.result(result)) }
}

/// How a single-upstream operator ends: returned by its ``OperatorLogic`` for the upstream's
/// completion, or inside ``OperatorStep/end(_:)``, and delivered by the ``OperatorDriver``.
@usableFromInline
package enum OperatorEnding<Output, Failure: Error> {
  /// Send this completion.
  case completion(Subscribers.Completion<Failure>)
  /// Send this value at once (the downstream's demand already covers it), then `.finished`,
  /// unless the downstream cancelled from inside its `receive` (`prefix(_:)`'s last value,
  /// `collect(_:)`'s last, partial batch).
  case last(Output)
  /// Send this value as soon as the downstream has demand (at once if it has some; otherwise
  /// on its next request), then `.finished`, unless it cancelled from inside its `receive`;
  /// `nil` sends `.finished` alone, also once the downstream has asked for anything (as
  /// Combine's `first()`, `last()`, `min()`... do for an empty upstream). Needs a logic that tracks demand
  /// (``OperatorLogic/demandTracking``): the reducing operators, `replaceEmpty`, `replaceError`.
  case result(Output?)
}
