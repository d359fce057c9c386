import CombineEx
import CombineExTesting

/// The runs of a ``controlledAction(enabledIf:)``: each run is a fresh subject, which the test
/// drives to send values, finish or fail.
final class RunLog {
  var runs: [PassthroughSubject<Int, ColdTestError>] = []
  var inputs: [Int] = []

  /// The subject of the latest run.
  var current: PassthroughSubject<Int, ColdTestError> { runs.last! }
}

/// An action whose runs last until the test ends them through `log`.
func controlledAction(
  enabledIf: Property<Bool> = Property(value: true)
) -> (action: Action<Int, Int, ColdTestError>, log: RunLog) {
  let log = RunLog()
  let action = Action<Int, Int, ColdTestError>(enabledIf: enabledIf) { input in
    log.inputs.append(input)
    let run = PassthroughSubject<Int, ColdTestError>()
    log.runs.append(run)
    return AnyDeferredPublisher { run }
  }
  return (action, log)
}

extension Subscribers.Completion {
  /// Whether this is a failure with ``ActionError/disabled``.
  var isDisabledFailure: Bool {
    guard case .failure(let error) = self else { return false }
    guard case .disabled? = error as? ActionError<ColdTestError> else { return false }
    return true
  }
}
