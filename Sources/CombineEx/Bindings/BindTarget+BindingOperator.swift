import CombineExCore

/// Binds `source` to `target`: each value of `source` is delivered to the target (on its
/// scheduler) for as long as the target object lives, until `source` completes. A failure ends
/// the binding without being delivered.
///
/// ```swift
/// final class Score: BindTargetProviding { var points = 0 }
/// let score = Score()
/// let results = PassthroughSubject<Int, Error>()
/// score.bind(receiveOn: ImmediateScheduler.shared, \.points) <~ results
/// results.send(10)
/// print(score.points)  // Prints: 10
/// ```
///
/// See ``BindTarget`` for the binding's lifetime.
public func <~ <T, Source: Publisher>(target: BindTarget<T>, source: Source)
where Source.Output == T {
  target.connect(source.catch { _ in Empty<T, Never>() }.eraseToAnyPublisher())
}

/// Binds `source` to an optional target: each value of `source` is delivered wrapped in
/// `Optional` (see the non-optional form).
///
/// ```swift
/// final class Profile: BindTargetProviding { var name: String? }
/// let profile = Profile()
/// let names = PassthroughSubject<String, Never>()
/// profile.bind(receiveOn: ImmediateScheduler.shared, \.name) <~ names
/// names.send("Ada")
/// print(profile.name ?? "-")  // Prints: Ada
/// ```
public func <~ <T, Source: Publisher>(target: BindTarget<T?>, source: Source)
where Source.Output == T {
  target.connect(
    source.map { Optional($0) }.catch { _ in Empty<T?, Never>() }.eraseToAnyPublisher())
}
