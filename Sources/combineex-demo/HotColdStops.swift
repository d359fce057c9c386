import CombineEx

/// Stops about hot and cold publishers, and cold futures.
enum HotColdStops {
  static func run(_ tour: Tour) {
    hotAndCold(tour)
    coldFutures(tour)
  }

  static func hotAndCold(_ tour: Tour) {
    tour.section(
      "Hot vs cold",
      "A hot publisher (a subject) shares one stream: subscribing starts nothing. A cold "
        + "publisher (AnyDeferredPublisher) is a piece of work: each subscription runs it "
        + "again. The type tells the caller which one it gets.")
    let hot = PassthroughSubject<String, Never>()
    let first = hot.sink { tour.show("hot subscriber 1 got \($0)") }
    let second = hot.sink { tour.show("hot subscriber 2 got \($0)") }
    hot.send("one shared event")

    var requests = 0
    let cold = AnyDeferredPublisher<String, Never> {
      requests += 1
      return Just("response #\(requests)")
    }
    tour.show("made the cold publisher: \(requests) requests so far")
    let third = cold.sink { tour.show("cold subscriber 1 got \($0)") }
    let fourth = cold.sink { tour.show("cold subscriber 2 got \($0)") }
    withExtendedLifetime((first, second, third, fourth)) {}
  }

  static func coldFutures(_ tour: Tour) {
    tour.section(
      "Cold futures",
      "Combine's Future runs its work when it is created and replays one result. "
        + "DeferredFuture runs its work once per subscription, never before: retry really "
        + "tries again.")
    var attempts = 0
    let eager = Future<Int, Never> { promise in
      attempts += 1
      promise(.success(attempts))
    }
    tour.show("created a Future: it already ran (\(attempts) attempt)")
    _ = eager

    struct Flaky: Error {}
    var tries = 0
    let upload = DeferredFuture<String, Flaky> { promise in
      tries += 1
      promise(tries < 3 ? .failure(Flaky()) : .success("uploaded on try \(tries)"))
    }
    tour.show("created a DeferredFuture: \(tries) tries so far")
    let cancellable = upload.retry(5).sink(
      receiveCompletion: { _ in }, receiveValue: { tour.show($0) })
    withExtendedLifetime(cancellable) {}
  }
}
