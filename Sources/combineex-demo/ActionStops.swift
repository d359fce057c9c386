import CombineEx

/// Stops about actions: running work from the UI, one run at a time.
enum ActionStops {
  static func run(_ tour: Tour) {
    action(tour)
    searchAsYouType(tour)
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

  static func searchAsYouType(_ tour: Tour) {
    tour.section(
      "Search as you type: the latest query wins",
      "action <~ queries refuses a query typed while a search runs, so a slow server leaves "
        + "old results on screen. action.applyLatest(from: queries) cancels the search in "
        + "flight and starts the new one, in one step of the gate: isExecuting stays true, "
        + "and the cancelled search publishes nothing.")
    let queries = PassthroughSubject<String, Never>()
    let server = PassthroughSubject<String, Never>()  // answers when told
    let search = Action<String, String, Never> { query in
      AnyDeferredPublisher {
        tour.show("searching for \"\(query)\"")
        return server.first().map { "\($0) for \"\(query)\"" }
      }
    }
    let spinner = search.isExecuting.sink { tour.show("isExecuting = \($0)") }
    let results = search.values.sink { tour.show("showing \($0)") }
    search.applyLatest(from: queries)
    queries.send("sw")
    queries.send("swift")
    server.send("3 results")
    withExtendedLifetime((spinner, results)) {}
  }
}
