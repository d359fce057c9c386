import CombineEx

extension Effect {
  /// Transforms each value the effect publishes; the result is still an effect (with this
  /// effect's cancellation token, if any).
  ///
  /// ```swift
  /// let cancellable = Effect<Int, Never>(value: 21).map { $0 * 2 }.sink { print($0) }
  /// // Prints: 42
  /// ```
  public func map<T>(_ transform: @escaping (Output) -> T) -> Effect<T, Failure> {
    let work = self.work
    return Effect<T, Failure>(
      work: { registry in work(registry).map(transform).eraseToAnyPublisher() }, token: token,
      boundRegistry: derivedBinding)
  }

  /// Runs the effects at the same time and publishes their values as they come; finishes when
  /// all have finished, and fails as soon as one fails.
  ///
  /// ```swift
  /// let cancellable = Effect<Int, Never>.merge(Effect(value: 1), .none, Effect(value: 2))
  ///   .sink { print($0) }
  /// // Prints: 1
  /// // Prints: 2
  /// ```
  public static func merge(_ effects: Effect...) -> Effect {
    merge(effects)
  }

  /// Runs a sequence of effects at the same time; see ``merge(_:)-(Effect<Output,Failure>...)``.
  public static func merge<S: Sequence>(_ effects: S) -> Effect where S.Element == Effect {
    let effects = Array(effects)
    switch effects.count {
    case 0: return .none
    case 1: return effects[0]
    default:
      return Effect(
        work: { registry in
          Publishers.MergeMany(effects.map { $0.publisher(in: registry) }).eraseToAnyPublisher()
        }, token: nil, boundRegistry: bindingOfEffects(effects))
    }
  }

  /// Runs the effects one after another: each starts when the previous one has finished.
  /// A failure ends the whole effect.
  ///
  /// ```swift
  /// let first = PassthroughSubject<Int, Never>()
  /// let cancellable = Effect<Int, Never>.concatenate(Effect(first), Effect(value: 3))
  ///   .sink { print($0) }
  /// first.send(1)  // Prints: 1
  /// first.send(completion: .finished)  // Prints: 3
  /// ```
  public static func concatenate(_ effects: Effect...) -> Effect {
    concatenate(effects)
  }

  /// Runs a collection of effects one after another; see
  /// ``concatenate(_:)-(Effect<Output,Failure>...)``.
  public static func concatenate<C: Collection>(_ effects: C) -> Effect
  where C.Element == Effect {
    let effects = Array(effects)
    switch effects.count {
    case 0: return .none
    case 1: return effects[0]
    default:
      // Each effect is built for the table now, and subscribed when its turn comes (maybe on
      // another thread): it keeps the ids in the table of the store that runs the whole.
      return Effect(
        work: { registry in
          effects.dropFirst().reduce(effects[0].publisher(in: registry)) { prefix, effect in
            Publishers.Concatenate(prefix: prefix, suffix: effect.publisher(in: registry))
              .eraseToAnyPublisher()
          }
        }, token: nil, boundRegistry: bindingOfEffects(effects))
    }
  }
}

/// The binding of an effect made of `effects`: the first one's that has one, or the table of the
/// store processing an action on this thread.
private func bindingOfEffects<Output, Failure>(_ effects: [Effect<Output, Failure>])
  -> CancellationRegistry?
{
  effects.lazy.compactMap(\.boundRegistry).first ?? CancellationRegistry.current
}
