import CombineExCore

/// A subscriber that asks for one more value from inside each `receive(_:)` (a re-entrant
/// request) and records how deeply its `receive(_:)` calls nest: 1 when the publisher delivers
/// the values such requests ask for iteratively, more when it recurses.
final class ReentrantRequester<Input, Failure: Error>: Subscriber {
  private(set) var values: [Input] = []
  private(set) var deepest = 0
  private(set) var completions = 0
  private(set) var subscription: (any Subscription)?
  private var depth = 0
  private let firstRequests: [Subscribers.Demand]

  /// A subscriber that makes `firstRequests` from inside `receive(subscription:)`.
  init(firstRequests: [Subscribers.Demand] = [.max(1)]) {
    self.firstRequests = firstRequests
  }

  func receive(subscription: any Subscription) {
    self.subscription = subscription
    for demand in firstRequests { subscription.request(demand) }
  }

  func receive(_ input: Input) -> Subscribers.Demand {
    depth += 1
    deepest = max(deepest, depth)
    values.append(input)
    subscription?.request(.max(1))
    depth -= 1
    return .none
  }

  func receive(completion: Subscribers.Completion<Failure>) { completions += 1 }
}
