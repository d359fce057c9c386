import CombineEx

/// Stops about the stream core: pipelines, demand, subjects, cancellation.
enum CoreStops {
  static func run(_ tour: Tour) {
    pipeline(tour)
    demand(tour)
    subjects(tour)
    cancellation(tour)
  }

  static func pipeline(_ tour: Tour) {
    tour.section(
      "A pipeline",
      "Publishers emit values; operators transform them; sink receives them. Nothing runs "
        + "until a subscriber attaches.")
    let cancellable = (1...6).publisher
      .filter { $0.isMultiple(of: 2) }
      .map { $0 * 10 }
      .sink(
        receiveCompletion: { tour.show("completion: \($0)") },
        receiveValue: { tour.show("value: \($0)") })
    withExtendedLifetime(cancellable) {}
  }

  static func demand(_ tour: Tour) {
    tour.section(
      "Demand",
      "A subscriber asks for values; a publisher never sends more than asked. Here a "
        + "subscriber takes two, then one more.")
    let subscriber = CountingSubscriber(tour: tour)
    (1...5).publisher.subscribe(subscriber)
    tour.show("asking for one more")
    subscriber.requestOneMore()
  }

  static func subjects(_ tour: Tour) {
    tour.section(
      "Subjects",
      "A PassthroughSubject broadcasts what you send; a CurrentValueSubject also replays its "
        + "current value to new subscribers.")
    let temperature = CurrentValueSubject<Int, Never>(20)
    let display = temperature.sink { tour.show("display shows \($0)°") }
    temperature.send(21)
    let logger = temperature.sink { tour.show("logger (subscribed late) sees \($0)°") }
    temperature.value = 22
    withExtendedLifetime((display, logger)) {}
  }

  static func cancellation(_ tour: Tour) {
    tour.section(
      "Cancellation",
      "sink returns an AnyCancellable; cancelling it (or letting it go) stops the "
        + "subscription, and the pipeline releases everything it held.")
    let events = PassthroughSubject<String, Never>()
    var cancellable: AnyCancellable? = events.sink { tour.show("got \($0)") }
    events.send("first")
    cancellable = nil
    events.send("second (nobody listens)")
    tour.show("after cancel: nothing more arrives")
    _ = cancellable
  }
}

/// A subscriber that requests two values, then one at a time when asked.
private final class CountingSubscriber: Subscriber {
  typealias Input = Int
  typealias Failure = Never

  private let tour: Tour
  private var subscription: (any Subscription)?

  init(tour: Tour) {
    self.tour = tour
  }

  func receive(subscription: any Subscription) {
    self.subscription = subscription
    tour.show("subscribed; requesting 2")
    subscription.request(.max(2))
  }

  func receive(_ input: Int) -> Subscribers.Demand {
    tour.show("received \(input)")
    return .none
  }

  func receive(completion: Subscribers.Completion<Never>) {
    tour.show("completed")
    subscription = nil
  }

  func requestOneMore() {
    subscription?.request(.max(1))
  }
}
