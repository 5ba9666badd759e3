//! Derives for the game contract (re-exported by `almanac-core`): what an event says of itself follows from
//! its type, so that no list of its variants is written again by hand.

use proc_macro::TokenStream;
use quote::quote;
use syn::{parse_macro_input, Data, DeriveInput, Fields};

/// `pub fn player(&self) -> Seat` for an event enum whose every variant names the player who acts: a
/// `player` field, or one unnamed field that has one (an event of its own type).
#[proc_macro_derive(Acting)]
pub fn acting(input: TokenStream) -> TokenStream {
    let input = parse_macro_input!(input as DeriveInput);
    let name = &input.ident;
    let Data::Enum(data) = &input.data else {
        return syn::Error::new_spanned(name, "Acting is derived for an enum of events").to_compile_error().into();
    };
    let arms = data.variants.iter().map(|v| {
        let variant = &v.ident;
        match &v.fields {
            Fields::Named(f) if f.named.iter().any(|f| f.ident.as_ref().is_some_and(|i| i == "player")) => {
                quote! { #name::#variant { player, .. } => *player }
            }
            Fields::Unnamed(f) if f.unnamed.len() == 1 => quote! { #name::#variant(event) => event.player },
            _ => syn::Error::new_spanned(v, "an event of an Acting enum names its `player`").to_compile_error(),
        }
    });
    quote! {
        impl #name {
            /// The player who acts.
            pub fn player(&self) -> almanac_core::Seat {
                match self {
                    #(#arms,)*
                }
            }
        }
    }
    .into()
}

/// `almanac_core::Played` for a state that keeps where play stands in its `turn`, `active` and `winner`
/// fields.
#[proc_macro_derive(Played)]
pub fn played(input: TokenStream) -> TokenStream {
    let input = parse_macro_input!(input as DeriveInput);
    let name = &input.ident;
    let has = |field: &str| match &input.data {
        Data::Struct(s) => s.fields.iter().any(|f| f.ident.as_ref().is_some_and(|i| i == field)),
        _ => false,
    };
    if !["turn", "active", "winner"].iter().all(|f| has(f)) {
        let words = "Played is derived for a state with `turn`, `active` and `winner` fields";
        return syn::Error::new_spanned(name, words).to_compile_error().into();
    }
    quote! {
        impl almanac_core::Played for #name {
            fn standing(&self) -> almanac_core::Standing {
                almanac_core::Standing { turn: self.turn, active: self.active, winner: self.winner }
            }
        }
    }
    .into()
}
