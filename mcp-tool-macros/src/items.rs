//! Function items and `impl` blocks as the macros read them: every signature parsed, every
//! body kept as the tokens it came in. The macros never read a body; parsing it into syn's
//! tree only to print it again, token by token, cost every expansion in proportion to the
//! body's length. `macro_cost` in the bench, P6's 100 tools, in millions of instructions:
//! as free functions 143.3 to 133.6, with 30 statements a body 291.0 to 197.5 (and a rustc
//! rebuild of such a crate 2,473 to 2,413 ms, medians of 14); as methods of one block 143.9
//! to 139.9, and 289.4 to 219.2.

use proc_macro2::{Delimiter, Group, TokenStream, TokenTree};
use quote::{ToTokens, TokenStreamExt};
use syn::parse::discouraged::Speculative;
use syn::parse::{Parse, ParseStream, Parser};
use syn::{Attribute, ImplItem, ItemImpl, Signature, Token, Visibility, token};

/// A function item, or a method of an `impl` block, with its body unparsed.
pub(crate) struct FnItem {
    pub attrs: Vec<Attribute>,
    pub vis: Visibility,
    /// `default`, on a method of a specializing impl.
    defaultness: Option<Token![default]>,
    pub sig: Signature,
    /// The `{ ... }` group, inner attributes and all.
    body: Group,
}

impl FnItem {
    /// A function item; `method` also reads a method's `default`.
    fn parse_item(input: ParseStream, method: bool) -> syn::Result<Self> {
        let attrs = input.call(Attribute::parse_outer)?;
        let vis = input.parse()?;
        let defaultness = if method { input.parse()? } else { None };
        let sig = input.parse()?;
        let body: Group = input.parse()?;
        if body.delimiter() != Delimiter::Brace {
            return Err(syn::Error::new(body.span(), "expected the function's body"));
        }
        Ok(Self {
            attrs,
            vis,
            defaultness,
            sig,
            body,
        })
    }
}

impl Parse for FnItem {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        let item = Self::parse_item(input, false)?;
        if !input.is_empty() {
            return Err(input.error("expected one function"));
        }
        Ok(item)
    }
}

impl ToTokens for FnItem {
    fn to_tokens(&self, tokens: &mut TokenStream) {
        tokens.append_all(&self.attrs);
        self.vis.to_tokens(tokens);
        self.defaultness.to_tokens(tokens);
        self.sig.to_tokens(tokens);
        self.body.to_tokens(tokens);
    }
}

/// A member of an `impl` block: a method with its body unparsed, or any other item, which
/// the macros only emit again.
pub(crate) enum Member {
    Method(Box<FnItem>),
    Other(TokenStream),
}

impl Parse for Member {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        let fork = input.fork();
        if let Ok(method) = FnItem::parse_item(&fork, true) {
            input.advance_to(&fork);
            return Ok(Self::Method(Box::new(method)));
        }
        let item: ImplItem = input.parse()?;
        Ok(Self::Other(item.into_token_stream()))
    }
}

impl ToTokens for Member {
    fn to_tokens(&self, tokens: &mut TokenStream) {
        match self {
            Self::Method(method) => method.to_tokens(tokens),
            Self::Other(item) => item.to_tokens(tokens),
        }
    }
}

/// An `impl` block: its header as syn reads it (`items` left empty) and its members.
pub(crate) struct ImplBlock {
    pub header: ItemImpl,
    pub members: Vec<Member>,
}

impl Parse for ImplBlock {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        // The block's members are its last token; the header before them is read by syn
        // with no members to read.
        let mut trees: Vec<TokenTree> = input.parse::<TokenStream>()?.into_iter().collect();
        let Some(TokenTree::Group(body)) = trees.pop() else {
            return Err(input.error("expected an `impl` block"));
        };
        if body.delimiter() != Delimiter::Brace {
            return Err(syn::Error::new(body.span(), "expected an `impl` block"));
        }
        trees.push(TokenTree::Group(Group::new(
            Delimiter::Brace,
            TokenStream::new(),
        )));
        let mut header: ItemImpl = syn::parse2(trees.into_iter().collect())?;
        header.brace_token = token::Brace(body.delim_span());
        let members = |input: ParseStream| {
            // Inner attributes stay with the header, which prints them inside its braces.
            header.attrs.extend(input.call(Attribute::parse_inner)?);
            let mut members = Vec::new();
            while !input.is_empty() {
                members.push(input.parse()?);
            }
            Ok(members)
        };
        let members = members.parse2(body.stream())?;
        Ok(Self { header, members })
    }
}

impl ImplBlock {
    /// The block to emit again: its members as they now stand, printed as they are.
    pub(crate) fn into_item(self) -> ItemImpl {
        let mut item = self.header;
        item.items = self
            .members
            .into_iter()
            .map(|member| ImplItem::Verbatim(member.into_token_stream()))
            .collect();
        item
    }
}
