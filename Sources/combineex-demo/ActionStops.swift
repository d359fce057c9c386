import CombineEx

/// Stops about actions: running work from the UI, one run at a time.
enum ActionStops {
  static func run(_ tour: Tour) {
    action(tour)
  }

  static func action(_ tour: Tour) {
    tour.section(
      "Actions",
      "An Action makes a cold run per input, refuses a second run while one is in flight "
        + "(the subscriber fails with .disabled and the work never starts), and publishes "
        + "whether it is executing: a button's spinner and enabled state in one object.")
    let response = PassthroughSubject<String, Never>()
    var started = 0
    let submit = Action<String, String, Never> { form in
      AnyDeferredPublisher {
        started += 1
        return response.prefix(1).map { "\(form): \($0)" }
      }
    }
    let spinner = submit.isExecuting.sink { tour.show("isExecuting = \($0)") }
    let first = submit.apply("order #1").sink(
      receiveCompletion: { tour.show("first run completed: \($0)") },
      receiveValue: { tour.show("first run got \($0)") })
    let second = submit.apply("order #2").sink(
      receiveCompletion: { completion in
        if case .failure(.disabled) = completion { tour.show("second run refused: .disabled") }
      },
      receiveValue: { _ in })
    tour.show("the work started \(started) time(s)")
    response.send("accepted")
    withExtendedLifetime((spinner, first, second)) {}
  }
}
